import '../notices.css';
import { useTranslation } from 'react-i18next';
import { useUnread } from '../api/get-unread';

/** The unread count for the Profile's "System notices" entry; nothing while all is read. */
export function UnreadBadge() {
  const { t } = useTranslation('notices');
  const unread = useUnread();
  const count = unread.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span className="unread-badge bold text-12 text-center" role="status" aria-label={t('badge', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
