import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearToken, messageOf } from '../lib/api';

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
