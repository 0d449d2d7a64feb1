import { TASK_SECTIONS as SECTIONS } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { LockOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { showForm } from '../../../lib/form-dialog';

/** Home for a visitor who is not logged in: what the app offers and a way in; tasks are per user. */
export function HomeWelcome() {
  const { t } = useTranslation('tasks');
  return (
    <div className="stack home-page">
      <section className="hero-card welcome-card">
        <h2>{t('welcome.title')}</h2>
        <p>{t('welcome.text')}</p>
        <Button shape="rounded" className="hero-card-button" onClick={() => showForm('login')}>
          {t('welcome.action')}
        </Button>
      </section>
      <section className="card task-section" aria-labelledby="section-preview">
        <h2 id="section-preview" className="task-section-title row semibold">
          {t('preview.title')}
        </h2>
        <ul className="plain-list section-preview flex flex-wrap">
          {SECTIONS.map((section) => (
            <li key={section}>
              <LockOutline aria-hidden />
              {t(`sections.${section}`)}
            </li>
          ))}
        </ul>
        <p className="task-section-empty radius-10 muted">{t('preview.note')}</p>
      </section>
    </div>
  );
}

/** Placeholders for the balance card and the first section while Home's data code and data load. */
export function HomeSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="stack home-page" role="status" aria-busy="true" aria-label={t('dialog.loading')}>
      <div className="hero-card balance-card skeleton-card" aria-hidden />
      <section className="card task-section" aria-hidden>
        <div className="stack skeleton-row">
          <span className="skeleton-line skeleton-line-wide" />
          <span className="skeleton-line skeleton-line-short" />
        </div>
        <div className="stack skeleton-row">
          <span className="skeleton-line skeleton-line-wide" />
          <span className="skeleton-line skeleton-line-short" />
        </div>
      </section>
    </div>
  );
}
