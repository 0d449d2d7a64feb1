import type { InboxItem } from '@kamai/contract';
import Tag from 'antd-mobile/es/components/tag';
import { BellOutline, SoundOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { formatDateTime } from '../../../lib/format-date';
import { Link } from '../../../lib/router';
import { useInboxText } from '../use-inbox-text';
import { detailSearch } from './detail-search';

/** One notice or notification in /List1: kind, pinned, title, the start of the text, time, unread dot. */
export function InboxRow({ item }: { item: InboxItem }) {
  const { t } = useTranslation('notices');
  const locale = currentLocale();
  const { title, body } = useInboxText(item);
  return (
    <Link
      className={item.read ? 'inbox-row flex' : 'inbox-row flex inbox-row-unread'}
      to={{ search: detailSearch(item) }}
    >
      <span className={`inbox-icon row flex-none inbox-icon-${item.kind}`} aria-hidden>
        {item.kind === 'notice' ? <SoundOutline /> : <BellOutline />}
      </span>
      <span className="stack inbox-row-main">
        <span className="inbox-row-title muted row text-15">
          {item.pinned && (
            <Tag color="primary" fill="outline" className="flex-none">
              {t('pinned')}
            </Tag>
          )}
          <span className="inbox-row-title-text ellipsis">{title}</span>
        </span>
        <span className="inbox-row-body muted text-13">{body}</span>
        <span className="inbox-row-meta muted text-12">
          {t(`kinds.${item.kind}`)} · <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, locale)}</time>
        </span>
      </span>
      {!item.read && <span className="inbox-unread-dot flex-none" role="img" aria-label={t('unread')} />}
    </Link>
  );
}
