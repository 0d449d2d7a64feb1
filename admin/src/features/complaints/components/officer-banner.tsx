import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCan } from '../../../lib/roles';
import { useComplaintSummary } from '../api/complaints';

/**
 * Shown on every console page to every operator while no Grievance Officer is set
 * (docs/decisions/grievances.md): until then Help and Privacy name no one. Admins get the way to fix it.
 */
export function OfficerBanner() {
  const { t } = useTranslation();
  const can = useCan();
  const summary = useComplaintSummary();
  if (!summary.data || summary.data.officerSet) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      className="officer-banner"
      message={
        <>
          {t('layout.officerMissing')} {can('adminPageSet') && <Link to="/pages">{t('layout.officerSet')}</Link>}
        </>
      }
    />
  );
}
