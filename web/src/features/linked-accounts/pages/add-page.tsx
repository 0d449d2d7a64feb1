import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../../lib/router';
import { CodeLinkPanel } from '../components/code-link-panel';
import '../linked-accounts.css';

const QrLinkPanel = lazy(() => import('../components/qr-link-panel'));

const METHODS = ['code', 'qr'] as const;
type Method = (typeof METHODS)[number];

/** The Add tab: link a messaging account by verification code or by QR code. The choice is in the address. */
export function AddPage() {
  const { t } = useTranslation('linked');
  const [params, setParams] = useSearchParams();
  const method: Method = params.get('method') === 'qr' ? 'qr' : 'code';
  const id = useId();
  const choose = (next: Method) => setParams(next === 'code' ? {} : { method: next }, { replace: true });

  return (
    <div className="stack add-page">
      <div className="segmented radius-10" role="tablist" aria-label={t('methods.label')}>
        {METHODS.map((value) => (
          <button
            key={value}
            type="button"
            role="tab"
            id={`${id}-${value}-tab`}
            aria-selected={method === value}
            aria-controls={`${id}-${value}`}
            className="segmented-option muted text-14 text-center"
            onClick={() => choose(value)}
          >
            {t(`methods.${value}`)}
          </button>
        ))}
      </div>
      <section
        className="stack card link-card"
        role="tabpanel"
        id={`${id}-${method}`}
        aria-labelledby={`${id}-${method}-title`}
      >
        <h2 id={`${id}-${method}-title`} className="link-card-title bold">
          {method === 'code' ? t('code.title') : t('qr.title')}
        </h2>
        {method === 'code' ? (
          <CodeLinkPanel />
        ) : (
          <Suspense fallback={<div className="qr-box" />}>
            <QrLinkPanel />
          </Suspense>
        )}
      </section>
    </div>
  );
}
