import { Empty, Table, type TableProps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../lib/api';
import type { CursorPages } from '../lib/cursor-pages';
import { Pager } from './pager';

/** What a list query answers: its rows and, when the server pages, the next page's cursor. */
interface ListQuery<T> {
  data?: { items: T[]; nextCursor?: string | null } | undefined;
  isFetching: boolean;
  error: unknown;
}

export interface DataTableProps<T>
  extends Omit<TableProps<T>, 'dataSource' | 'loading' | 'locale' | 'pagination' | 'title'> {
  /** A list query (rows, loading, error and the next cursor come from it) … */
  query?: ListQuery<T>;
  /** … or rows at hand (a drawer's small tables). */
  rows?: readonly T[];
  loading?: boolean;
  error?: unknown;
  /** The server's keyset pages: shows the pager under the table. */
  pages?: CursorPages;
  /** A small heading above the table. */
  title?: string;
}

/**
 * The console's table: a spinner while loading, "nothing here yet" or the server's message instead of
 * rows, and the previous / next pager when the list is paged on the server.
 */
export function DataTable<T extends object>({
  query,
  rows,
  loading,
  error,
  pages,
  title,
  rowKey = 'id',
  size = 'middle',
  ...table
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const failure = query ? query.error : error;
  const busy = query ? query.isFetching : loading;
  return (
    <>
      {title && <Typography.Title level={5}>{title}</Typography.Title>}
      <Table<T>
        rowKey={rowKey}
        size={size}
        loading={busy}
        dataSource={(query ? query.data?.items : rows) ?? []}
        pagination={false}
        locale={{
          emptyText: failure ? (
            <Typography.Text type="danger">{messageOf(failure)}</Typography.Text>
          ) : (
            <Empty description={t('table.empty')} />
          ),
        }}
        {...table}
      />
      {pages && <Pager pages={pages} nextCursor={query?.data?.nextCursor} loading={busy} />}
    </>
  );
}
