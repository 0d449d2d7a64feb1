import SpinLoading from 'antd-mobile/es/components/spin-loading';
import Tag from 'antd-mobile/es/components/tag';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import '../../../i18n/errors';
import { formatClock } from '../format';
import type { PairingOutcome } from '../pairing';

/** Under the code: waiting (or re-binding) with the time left, or expired. Announced to screen readers. */
export function PairingStatus({ outcome, expiresInSeconds }: { outcome?: PairingOutcome; expiresInSeconds: number }) {
  const { t } = useTranslation(['linked', 'errors']);
  let content = null;
  if (outcome === 'success')
    content = (
      <span className="pairing-status-success primary semibold">
        <CheckCircleFill aria-hidden /> {t('errors:binding_successful')}
      </span>
    );
  else if (outcome === 'expired') content = <span className="pairing-status-expired">{t('code.expired')}</span>;
  else if (outcome === 'waiting' || outcome === 'rebinding')
    content = (
      <>
        <SpinLoading className="flex-none" style={{ '--size': '16px' }} aria-hidden />
        <span>
          {outcome === 'rebinding' && (
            <Tag color="warning" fill="outline" className="pairing-status-tag">
              {t('errors:rebinding')}
            </Tag>
          )}
          {t('code.waiting')} · {t('code.validFor', { time: formatClock(expiresInSeconds) })}
        </span>
      </>
    );
  return (
    <p className="pairing-status muted row text-13" role="status">
      {content}
    </p>
  );
}
