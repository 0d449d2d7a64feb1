import { LINKED_STATUS_LABEL, type LinkedStatus } from '@kamai/contract';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import '../../../i18n/errors';

/** Online earns, To Login and Offline wait for the user, the rest need attention. */
const COLORS: Record<LinkedStatus, 'success' | 'default' | 'warning' | 'danger' | 'primary'> = {
  online: 'success',
  to_login: 'primary',
  offline: 'default',
  abnormal: 'warning',
  banned: 'danger',
  agent_expired: 'warning',
  segment_expired: 'warning',
  no_agent_available: 'warning',
};

/** A linked account's status label (spec section 3), from the contract's catalogue. */
export function StatusTag({ status }: { status: LinkedStatus }) {
  const { t } = useTranslation('errors');
  return (
    <Tag color={COLORS[status]} round className="status-tag">
      {t(LINKED_STATUS_LABEL[status])}
    </Tag>
  );
}
