import { useTranslation } from 'react-i18next';

/**
 * The unread count as drawn (the Profile's "System notices" entry, the My tab); nothing while all is
 * read. Its text is in `common` and its rules in app/styles.css: the tab bar draws it on Home's first
 * screen, before the notices namespace and stylesheet have loaded.
 */
export function UnreadBadgeView({ count, className = '' }: { count: number; className?: string }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <span
      className={`unread-badge radius-10 bold text-12 text-center ${className}`}
      role="status"
      aria-label={t('unreadBadge', { count })}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
