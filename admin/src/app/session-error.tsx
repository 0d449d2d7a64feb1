import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearToken, messageOf } from '../lib/api';
// antd's styles for the Result (app/theme.ts: antd's zero-runtime mode); the console's chunk shares them.
import '../antd/console.css';

/** The kept session could not be checked (the server down, the session refused): say why, offer the login. */
export function SessionError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={messageOf(error)}
      extra={<Button onClick={() => clearToken()}>{t('layout.backToLogin')}</Button>}
    />
  );
}
