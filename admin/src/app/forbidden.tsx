import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { allowed, useMe } from '../lib/roles';
import { PAGES } from './pages';

/** A page the role may not open, refused in words with a way home (its own chunk: antd's Result is large). */
export function Forbidden() {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const home = PAGES.find((p) => allowed(me.role, p.route));
  return (
    <Result
      status="403"
      title={t('layout.forbidden')}
      subTitle={t('layout.forbiddenNote', { role: t(`roles.${me.role}`) })}
      extra={
        home && (
          <Button type="primary" onClick={() => navigate(`/${home.path}`)}>
            {t(`menu.${home.label}`)}
          </Button>
        )
      }
    />
  );
}
