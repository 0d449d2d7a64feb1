import type { InboxItem, InboxKind } from '@kamai/contract';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { messageOf } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format-date';
import { useInboxItem } from '../api/get-inbox-item';
import { useInboxText } from '../use-inbox-text';

/** One notice or notification in full; opening it marks it read. */
export function InboxDetail({ kind, id }: { kind: InboxKind; id: number }) {
  const { t } = useTranslation(['notices', 'common']);
  const query = useInboxItem(kind, id);

  if (query.isPending) {
    return (
      <div className="stack list-status muted text-center" role="status" aria-label={t('common:dialog.loading')}>
        <DotLoading />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="stack list-status muted text-center">
        <p>{t('detailFailed')}</p>
        <p>{messageOf(query.error)}</p>
        <Button size="small" shape="rounded" onClick={() => void query.refetch()}>
          {t('common:request.retry')}
        </Button>
      </div>
    );
  }
  return <InboxDetailView item={query.data} />;
}

function InboxDetailView({ item }: { item: InboxItem }) {
  const { t } = useTranslation('notices');
  const locale = currentLocale();
  const { title, body } = useInboxText(item);
  return (
    <article className="stack card inbox-detail" aria-labelledby="inbox-detail-title">
      <p className="primary semibold text-13">
        {t(`kinds.${item.kind}`)}
        {item.pinned && ` · ${t('pinned')}`}
      </p>
      <h2 id="inbox-detail-title" className="inbox-detail-title bold">
        {title}
      </h2>
      <time className="inbox-detail-time muted text-12" dateTime={item.createdAt}>
        {formatDateTime(item.createdAt, locale)}
      </time>
      {item.imageUrl && <img className="inbox-detail-image radius-10" src={item.imageUrl} alt="" loading="lazy" />}
      <p className="inbox-detail-body wrap-anywhere text-15">{body}</p>
    </article>
  );
}
