import { Checkbox, Empty, Spin, type TableColumnType, type TableProps, Typography } from 'antd';
import { type Key, type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../lib/api';
import type { CursorPages } from '../lib/cursor-pages';
import { isWide, useWide } from '../lib/wide';
import { LightCard } from './light-card';
import { Pager } from './pager';

type AntTable = typeof import('antd')['Table'];

/**
 * antd's Table (~60 kB gzip) loads only where a table is shown, from 768 px: at once when the console
 * opens that wide, else when the window grows. A phone renders the rows as cards without it.
 */
let LoadedTable: AntTable | undefined;
let loading: Promise<AntTable> | undefined;
const tableListeners = new Set<() => void>();

/** Fetches the Table's chunk (once); resolves when a DataTable can render it. */
export function loadTable(): Promise<AntTable> {
  loading ??= import('./table-view').then((m) => {
    LoadedTable = m.default;
    for (const listener of tableListeners) listener();
    return m.default;
  });
  return loading;
}

function useLoadedTable(wanted: boolean): AntTable | undefined {
  const table = useSyncExternalStore(
    (listener) => {
      tableListeners.add(listener);
      return () => tableListeners.delete(listener);
    },
    () => LoadedTable,
  );
  useEffect(() => {
    if (wanted) void loadTable();
  }, [wanted]);
  return table;
}

if (isWide()) void loadTable();

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
  /**
   * How a row reads on a phone, instead of its "column: value" lines: a list of work shows what the
   * reviewer decides on, compactly, with its actions at the card's foot (within one thumb's reach).
   */
  card?: (row: T, index: number) => ReactNode;
}

/** A cell's content as the table would render it: the column's `render`, else the value at `dataIndex`. */
function cellOf<T extends object>(column: TableColumnType<T>, row: T, index: number): ReactNode {
  const path = column.dataIndex;
  const keys = path === undefined || path === null ? [] : Array.isArray(path) ? path : [path];
  let value: unknown = row;
  for (const key of keys) value = (value as Record<string, unknown> | undefined)?.[key as string];
  if (keys.length === 0) value = undefined;
  if (column.render) {
    const rendered = column.render(value, row, index);
    // antd lets render answer `{ children, props }`; only the children matter in a card.
    if (rendered && typeof rendered === 'object' && 'children' in (rendered as object) && !('$$typeof' in rendered)) {
      return (rendered as { children: ReactNode }).children;
    }
    return rendered as ReactNode;
  }
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Under ~768 px every row becomes a card of "column: value" lines, so a phone never scrolls sideways;
 * selection, row clicks and the row's class carry over.
 */
function RowCards<T extends object>({
  rows,
  columns,
  rowKey,
  rowSelection,
  onRow,
  rowClassName,
  busy,
  card,
}: {
  card?: DataTableProps<T>['card'];
  rows: readonly T[];
  columns: TableColumnType<T>[];
  rowKey: DataTableProps<T>['rowKey'];
  rowSelection: TableProps<T>['rowSelection'];
  onRow: TableProps<T>['onRow'];
  rowClassName: TableProps<T>['rowClassName'];
  busy: boolean | undefined;
}) {
  const { t } = useTranslation();
  const keyOf = (row: T, index: number): Key =>
    typeof rowKey === 'function' ? rowKey(row, index) : ((row as Record<string, Key>)[String(rowKey ?? 'id')] ?? index);
  const selected = new Set(rowSelection?.selectedRowKeys ?? []);
  return (
    <Spin spinning={Boolean(busy)}>
      <div className="row-cards" data-testid="row-cards">
        {rows.map((row, index) => {
          const key = keyOf(row, index);
          const handlers = onRow?.(row, index) ?? {};
          const extraClass = typeof rowClassName === 'function' ? rowClassName(row, index, 0) : (rowClassName ?? '');
          const checkbox = rowSelection ? (
            <Checkbox
              checked={selected.has(key)}
              aria-label={t('table.selectRow')}
              disabled={rowSelection.getCheckboxProps?.(row)?.disabled}
              onClick={(event) => event.stopPropagation()}
              onChange={(event) => {
                const next = event.target.checked ? [...selected, key] : [...selected].filter((k) => k !== key);
                rowSelection.onChange?.(
                  next,
                  rows.filter((r, i) => next.includes(keyOf(r, i))),
                  { type: 'multiple' },
                );
              }}
            />
          ) : null;
          return (
            // antd Card's look without the component: a page of cards renders on a phone's first screen.
            <LightCard
              key={key}
              small
              className={`row-card ${extraClass}`}
              onClick={handlers.onClick as never}
              // A card is no option of a listbox: the shown row is the current one.
              aria-current={(handlers as Record<string, unknown>)['aria-selected'] ? 'true' : undefined}
            >
              {checkbox}
              {card ? (
                <div className="row-card-custom">{card(row, index)}</div>
              ) : (
                <dl className="row-card-fields">
                  {columns.map((column, columnIndex) => (
                    <div key={String(column.key ?? columnIndex)} className="row-card-field">
                      <dt>{column.title as ReactNode}</dt>
                      <dd>{cellOf(column, row, index)}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </LightCard>
          );
        })}
      </div>
    </Spin>
  );
}

/**
 * The console's table: a spinner while loading, "nothing here yet" or the server's message instead of
 * rows, and the previous / next pager when the list is paged on the server. On a phone the rows are cards.
 */
export function DataTable<T extends object>({
  query,
  rows,
  loading,
  error,
  pages,
  title,
  card,
  rowKey = 'id',
  size = 'middle',
  ...table
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const wide = useWide();
  const failure = query ? query.error : error;
  const busy = query ? query.isFetching : loading;
  const data = (query ? query.data?.items : rows) ?? [];
  const empty = failure ? (
    <Typography.Text type="danger">{messageOf(failure)}</Typography.Text>
  ) : (
    <Empty description={t('table.empty')} />
  );
  // Below 768 px the table would scroll sideways, so rows become cards.
  const narrow = !wide;
  const Table = useLoadedTable(wide);
  return (
    <>
      {title && <Typography.Title level={5}>{title}</Typography.Title>}
      {narrow ? (
        data.length === 0 && !busy ? (
          empty
        ) : (
          <RowCards<T>
            rows={data}
            columns={(table.columns ?? []) as TableColumnType<T>[]}
            rowKey={rowKey}
            rowSelection={table.rowSelection}
            onRow={table.onRow}
            rowClassName={table.rowClassName}
            busy={busy}
            card={card}
          />
        )
      ) : Table ? (
        <Table<T>
          rowKey={rowKey}
          size={size}
          loading={busy}
          dataSource={data}
          pagination={false}
          locale={{ emptyText: empty }}
          {...table}
        />
      ) : (
        <Spin />
      )}
      {/* From the first answer on: shown while the rows are still coming, the rows would push it down. */}
      {pages && (!query || query.data !== undefined || failure) && (
        <Pager pages={pages} nextCursor={query?.data?.nextCursor} loading={busy} />
      )}
    </>
  );
}
