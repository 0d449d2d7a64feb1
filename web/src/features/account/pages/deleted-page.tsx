import Button from 'antd-mobile/es/components/button';
import { CheckCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { Link } from '../../../lib/router';
import '../account.css';

/**
 * Where account deletion ends (every session is over, so no one is logged in): what happened and what
 * is kept, in the reader's language, with the way to the privacy policy's list and to Home.
 */
export function AccountDeletedPage() {
  const { t } = useTranslation('users');
  return (
    <section className="stack deleted-page" aria-labelledby="deleted-title">
      <CheckCircleOutline className="deleted-icon primary" aria-hidden />
      <h2 id="deleted-title" className="deleted-title wrap-anywhere">
        {t('deleted.title')}
      </h2>
      <p className="info-text wrap-anywhere">{t('deleted.text')}</p>
      <p className="info-text wrap-anywhere">{t('deleted.kept')}</p>
      <Link className="wrap-anywhere" to={paths.privacy}>
        {t('deleted.privacy')}
      </Link>
      <Button block color="primary" onClick={() => window.location.assign(paths.home)}>
        {t('deleted.home')}
      </Button>
    </section>
  );
}
