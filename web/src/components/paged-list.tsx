import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { PullRefresh } from './pull-refresh';
import { SkeletonRows } from './skeleton-rows';

interface Page {
  items: unknown[];
  nextCursor: string | null;
}

type ItemOf<P extends Page> = P['items'][number];

interface PagedListProps<P extends Page> {
  query: UseInfiniteQueryResult<InfiniteData<P>>;
  /** Accessible name of the list. */
  label: string;
  keyOf: (item: ItemOf<P>) => string | number;
  renderItem: (item: ItemOf<P>) => ReactNode;
  empty: { title: string; description: string };
  /** Above the list (totals, an invite link); refreshed with it. */
  header?: ReactNode;
  /** Class of the list (default: rows on one white card). */
  listClassName?: string;
}

/** A keyset-paged list: skeletons, then rows that load on scroll, pull to refresh, an honest empty state. */
export function PagedList<P extends Page>(props: PagedListProps<P>) {
  const { query, label, keyOf, renderItem, empty, header } = props;
  const { t } = useTranslation();
  const items: ItemOf<P>[] = query.data?.pages.flatMap((page) => page.items) ?? [];

  const loadMore = async () => {
    const result = await query.fetchNextPage();
    if (result.isError) throw result.error;
  };

  let body: ReactNode;
  if (query.isPending) body = <SkeletonRows label={t('dialog.loading')} />;
  else if (query.isError && items.length === 0)
    body = (
      <div className="stack list-status muted text-center">
        <p>{t('request.failed')}</p>
        <Button size="small" shape="rounded" onClick={() => void query.refetch()}>
          {t('request.retry')}
        </Button>
      </div>
    );
  else if (items.length === 0) body = <EmptyState title={empty.title} description={empty.description} />;
  else
    body = (
      <>
        <ul className={props.listClassName ?? 'card plain-list record-list divided'} aria-label={label}>
          {items.map((item) => (
            <li key={keyOf(item)}>{renderItem(item)}</li>
          ))}
        </ul>
        <InfiniteScroll loadMore={loadMore} hasMore={query.hasNextPage}>
          {(hasMore, failed, retry) => (
            <span className="list-footer muted text-13">
              {!hasMore ? (
                t('list.end')
              ) : failed ? (
                <button type="button" className="link-button primary" onClick={() => void retry()}>
                  {t('list.failed')}
                </button>
              ) : (
                <>
                  {t('dialog.loading')} <DotLoading />
                </>
              )}
            </span>
          )}
        </InfiniteScroll>
      </>
    );

  return (
    <PullRefresh onRefresh={() => query.refetch()}>
      <div className="stack paged-list">
        {header}
        {body}
      </div>
    </PullRefresh>
  );
}
