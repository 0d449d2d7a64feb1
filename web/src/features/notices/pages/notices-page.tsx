import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedList } from '../../../components/paged-list';
import { useSearchParams } from '../../../lib/router';
import { useInbox } from '../api/get-inbox';
import { useMarkSeen } from '../api/mark-seen';
import { detailOf } from '../components/detail-search';
import { InboxDetail } from '../components/inbox-detail';
import { InboxRow } from '../components/inbox-row';
import '../notices.css';

function InboxList() {
  const { t } = useTranslation('notices');
  const query = useInbox();
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  useMarkSeen(items);
  return (
    <PagedList
      query={query}
      label={t('label')}
      keyOf={(item) => `${item.kind}:${item.id}`}
      renderItem={(item) => <InboxRow item={item} />}
      empty={{ title: t('empty.title'), description: t('empty.description') }}
    />
  );
}

/** /List1: system notices and the caller's own notifications; `?kind=&id=` shows one of them. */
export function NoticesPage() {
  const [params] = useSearchParams();
  const detail = detailOf(params);
  return detail ? <InboxDetail kind={detail.kind} id={detail.id} /> : <InboxList />;
}
