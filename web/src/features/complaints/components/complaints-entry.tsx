import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths';
import { useIsLoggedIn } from '../../../lib/api';
import { useNavigate } from '../../../lib/router';
import '../complaints.css';

/** On Help: raising a complaint and following the ones raised, with the deadlines we keep. */
export function ComplaintsEntry() {
  const { t } = useTranslation('complaints');
  const navigate = useNavigate();
  const loggedIn = useIsLoggedIn();
  return (
    <section className="info-card stack complaints-entry" aria-labelledby="complaints-entry">
      <h3 id="complaints-entry" className="info-subtitle text-15">
        {t('entry.title')}
      </h3>
      <p className="info-text">{t('promise')}</p>
      <div className="complaints-entry-actions flex flex-wrap">
        <Button size="small" color="primary" onClick={() => navigate(paths.complaintNew)}>
          {t('action.raise')}
        </Button>
        {loggedIn && (
          <Button size="small" fill="outline" onClick={() => navigate(paths.complaints)}>
            {t('entry.mine')}
          </Button>
        )}
      </div>
    </section>
  );
}
