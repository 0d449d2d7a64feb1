import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { dateTime } from '../../../lib/format';
import { usePendingChanges } from '../api/control';

/** Shown on every console page to every staff member while a single admin's change waits out its delay. */
export function DelayBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const summary = usePendingChanges();
  const until = summary.data?.delayedUntil;
  if (!until) return null;
  return (
    <Alert
      className="control-banner"
      type="warning"
      showIcon
      message={t('control.banner', { time: dateTime(until) })}
      action={
        <Button size="small" onClick={() => navigate('/changes')}>
          {t('control.view')}
        </Button>
      }
    />
  );
}
