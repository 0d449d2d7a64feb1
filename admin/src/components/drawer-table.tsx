import { Empty, Table, type TableColumnsType, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../lib/api';

/**
 * One titled, unpaged table of the user detail drawer (recent movements, withdrawals, linked numbers):
 * a spinner while `loading`, the server's message in place of rows when the read failed.
 */
export function DrawerTable<T extends { id: number }>(props: {
  title: string;
  rows: T[] | undefined;
  columns: TableColumnsType<T>;
  loading?: boolean;
  error?: unknown;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Title level={5}>{props.title}</Typography.Title>
      <Table<T>
        rowKey="id"
        size="small"
        pagination={false}
        loading={props.loading}
        dataSource={props.rows ?? []}
        locale={{ emptyText: props.error ? messageOf(props.error) : <Empty description={t('table.empty')} /> }}
        columns={props.columns}
      />
    </div>
  );
}
