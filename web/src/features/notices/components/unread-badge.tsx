import '../notices.css';
import { useTranslation } from 'react-i18next';
import { useUnread } from '../api/get-unread';

/** The unread count (the Profile's "System notices" entry, the My tab); nothing while all is read. */
export function UnreadBadge({ className = '' }: { className?: string }) {
  const { t } = useTranslation('notices');
  const unread = useUnread();
  const count = unread.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span
      className={`unread-badge bold text-12 text-center ${className}`}
      role="status"
      aria-label={t('badge', { count })}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
