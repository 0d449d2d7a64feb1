import { type AdminUserRow, ROLES } from '@kamai/contract';
import { Card, DatePicker, Input, Select, Space } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { ExportCard } from '../../../components/export-card';
import { useCursorPages } from '../../../lib/cursor-pages';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useUrlFilters } from '../../../lib/url-filters';
import { useUsers } from '../api/get-users';
import { FrozenTag, UserDrawer } from '../components/user-drawer';

const FILTERS = {
  q: 'text',
  role: ROLES,
  frozen: ['true', 'false'],
  joinedFrom: 'text',
  joinedTo: 'text',
  /** The user whose drawer is open. */
  user: 'id',
} as const;

export default function UsersPage() {
  const { t } = useTranslation();
  const [url, setUrl] = useUrlFilters(FILTERS);
  const { user: open, ...filters } = url;
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useUsers(filters, pages.cursor);
  const [search, setSearch] = useState(filters.q ?? '');

  return (
    <Space orientation="vertical" size="middle" className="stack">
      <Card>
        <Space wrap>
          <Input.Search
            allowClear
            aria-label={t('users.search')}
            placeholder={t('users.search')}
            className="field-l"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onSearch={(value) => setUrl({ ...filters, q: value.trim() || undefined })}
          />
          <Select
            allowClear
            aria-label={t('users.role')}
            placeholder={t('users.anyRole')}
            className="field-s"
            value={filters.role}
            onChange={(role?: (typeof ROLES)[number]) => setUrl({ ...filters, role })}
            options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          />
          <Select
            allowClear
            aria-label={t('users.status')}
            placeholder={t('users.anyStatus')}
            className="field-s"
            value={filters.frozen}
            onChange={(frozen?: 'true' | 'false') => setUrl({ ...filters, frozen })}
            options={[
              { value: 'false', label: t('users.active') },
              { value: 'true', label: t('users.frozen') },
            ]}
          />
          <DatePicker.RangePicker
            placeholder={[t('users.joinedFrom'), t('users.joinedTo')]}
            value={[
              filters.joinedFrom ? dayjs(filters.joinedFrom) : null,
              filters.joinedTo ? dayjs(filters.joinedTo) : null,
            ]}
            onChange={(r) =>
              setUrl({ ...filters, joinedFrom: r?.[0]?.format('YYYY-MM-DD'), joinedTo: r?.[1]?.format('YYYY-MM-DD') })
            }
          />
        </Space>
      </Card>
      <ExportCard
        exports={[
          { route: 'adminExportUsers', file: 'users', label: t('users.exportUsers') },
          { route: 'adminExportMovements', file: 'movements', label: t('users.exportMovements') },
          { route: 'adminExportWithdrawals', file: 'withdrawals', label: t('users.exportWithdrawals') },
        ]}
      />
      <Card>
        <DataTable<AdminUserRow>
          query={list}
          pages={pages}
          className="clickable-rows"
          onRow={(row) => ({ onClick: () => setUrl({ ...url, user: row.id }) })}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            { title: t('users.username'), dataIndex: 'username', render: (name: string) => phoneNumber(name) },
            { title: t('users.role'), render: (_, row) => t(`roles.${row.role}`) },
            { title: t('users.status'), render: (_, row) => <FrozenTag frozen={row.frozen} deleted={row.deleted} /> },
            { title: t('users.balance'), align: 'right', render: (_, row) => rupees(row.balance) },
            { title: t('users.hold'), align: 'right', render: (_, row) => rupees(row.hold) },
            { title: t('users.earned'), align: 'right', render: (_, row) => rupees(row.totalEarned) },
            { title: t('users.withdrawn'), align: 'right', render: (_, row) => rupees(row.totalWithdrawn) },
            { title: t('users.inviter'), render: (_, row) => row.inviter?.username ?? '—' },
            { title: t('users.inviteeCount'), dataIndex: 'inviteeCount' },
            { title: t('users.joined'), render: (_, row) => dateTime(row.createdAt) },
          ]}
        />
      </Card>
      {open !== undefined && <UserDrawer userId={open} onClose={() => setUrl(filters)} />}
    </Space>
  );
}
