import { type AdminUserRow, adminUserResetPassBody, ROLES, type Role, revenueAddBody } from '@kamai/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Tree,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DrawerTable } from '../components/drawer-table';
import { ExportCard } from '../components/export-card';
import { Pager } from '../components/pager';
import { apiCall, apiRequest, messageOf } from '../lib/api';
import { useCursorPages } from '../lib/cursor-pages';
import { dateTime, rupees } from '../lib/format';
import { useCan, useMe } from '../lib/roles';
import { contractRule } from '../lib/rules';
import { UserLinkedAccounts, UserWithdrawals } from './user-activity';

interface Filters {
  q?: string;
  role?: Role;
  frozen?: 'true' | 'false';
  joinedFrom?: string;
  joinedTo?: string;
}

function UserDrawer({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const can = useCan();
  const me = useMe();
  const [dialog, setDialog] = useState<'revenue' | 'password'>();
  const [form] = Form.useForm();
  const detail = useQuery({
    queryKey: ['users', 'detail', userId],
    queryFn: () => apiCall('adminUserDetail', { query: { id: userId } }),
  });
  const done = (text: string) => {
    void message.success(text);
    void client.invalidateQueries({ queryKey: ['users'] });
  };
  const fail = (error: unknown) => void message.error(messageOf(error));
  const freeze = useMutation({
    mutationFn: (frozen: boolean) => apiRequest('adminUserFreeze', { body: { userId, frozen } }),
    onSuccess: (r) => done(r.message),
    onError: fail,
  });
  const role = useMutation({
    mutationFn: (value: Role) => apiRequest('adminUserRole', { body: { userId, role: value } }),
    onSuccess: (r) => done(r.message),
    onError: fail,
  });
  const submitDialog = useMutation({
    mutationFn: async (values: { amount?: string; remark?: string; password?: string }) =>
      dialog === 'revenue'
        ? apiRequest('adminRevenueAdd', {
            body: { userId, amount: values.amount ?? '', remark: values.remark ?? '' },
          })
        : apiRequest('adminUserResetPassword', { body: { userId, password: values.password ?? '' } }),
    onSuccess: (r) => {
      done(r.message);
      setDialog(undefined);
      form.resetFields();
    },
    onError: fail,
  });

  const data = detail.data;
  const self = data?.user.id === me.id;
  return (
    <Drawer open size={720} onClose={onClose} title={data ? `${data.user.username} #${data.user.id}` : ''}>
      {!data ? (
        detail.isError ? (
          <Typography.Text type="danger">{messageOf(detail.error)}</Typography.Text>
        ) : (
          <Skeleton active />
        )
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('users.role')}>{t(`roles.${data.user.role}`)}</Descriptions.Item>
            <Descriptions.Item label={t('users.status')}>
              {data.user.frozen ? (
                <Tag color="red">{t('users.frozen')}</Tag>
              ) : (
                <Tag color="green">{t('users.active')}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.balance')}>{rupees(data.user.balance)}</Descriptions.Item>
            <Descriptions.Item label={t('users.hold')}>{rupees(data.user.hold)}</Descriptions.Item>
            <Descriptions.Item label={t('users.earned')}>{rupees(data.user.totalEarned)}</Descriptions.Item>
            <Descriptions.Item label={t('users.withdrawn')}>{rupees(data.user.totalWithdrawn)}</Descriptions.Item>
            <Descriptions.Item label={t('users.inviteCode')}>{data.user.inviteCode}</Descriptions.Item>
            <Descriptions.Item label={t('users.inviter')}>
              {data.user.inviter ? `${data.user.inviter.username} #${data.user.inviter.id}` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.joined')}>{dateTime(data.user.createdAt)}</Descriptions.Item>
          </Descriptions>
          {can('adminUserFreeze') && !self && (
            <Space wrap>
              <Popconfirm
                title={data.user.frozen ? t('users.unfreezeConfirm') : t('users.freezeConfirm')}
                okText={t('actions.confirm')}
                cancelText={t('actions.cancel')}
                onConfirm={() => freeze.mutateAsync(!data.user.frozen).catch(() => undefined)}
              >
                <Button danger={!data.user.frozen}>{data.user.frozen ? t('users.unfreeze') : t('users.freeze')}</Button>
              </Popconfirm>
              <Select
                aria-label={t('users.role')}
                value={data.user.role}
                style={{ width: 150 }}
                options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                onChange={(value: Role) =>
                  Modal.confirm({
                    title: t('users.roleConfirm', { role: t(`roles.${value}`) }),
                    okText: t('actions.confirm'),
                    cancelText: t('actions.cancel'),
                    onOk: () => role.mutateAsync(value).catch(() => undefined),
                  })
                }
              />
              <Button onClick={() => setDialog('password')}>{t('users.resetPassword')}</Button>
              <Button type="primary" onClick={() => setDialog('revenue')}>
                {t('users.revenueAdd')}
              </Button>
            </Space>
          )}
          <DrawerTable
            title={t('users.movements')}
            rows={data.movements}
            columns={[
              { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
              { title: t('users.movementType'), render: (_, row) => t(`postingTypes.${row.type}`) },
              { title: t('withdrawals.amount'), align: 'right', render: (_, row) => rupees(row.amount) },
              { title: t('users.balance'), align: 'right', render: (_, row) => rupees(row.balanceAfter) },
            ]}
          />
          <UserWithdrawals userId={userId} />
          <UserLinkedAccounts userId={userId} />
          <div>
            <Typography.Title level={5}>{t('users.inviteTree', { count: data.inviteTree.count })}</Typography.Title>
            {data.inviteTree.items.length === 0 ? (
              <Empty description={t('table.empty')} />
            ) : (
              <Tree
                defaultExpandAll
                treeData={data.inviteTree.items.map((item) => ({
                  key: item.id,
                  title: `${item.username} #${item.id} · ${dateTime(item.createdAt)} · ${t('users.invitees', { count: item.inviteeCount })}`,
                  children: item.invitees.map((child) => ({
                    key: child.id,
                    title: `${child.username} #${child.id} · ${dateTime(child.createdAt)}`,
                  })),
                }))}
              />
            )}
          </div>
        </Space>
      )}
      <Modal
        open={dialog !== undefined}
        title={dialog === 'revenue' ? t('users.revenueAdd') : t('users.resetPassword')}
        okText={t('actions.confirm')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ loading: submitDialog.isPending }}
        onOk={() => void form.validateFields().then((values) => submitDialog.mutate(values))}
        onCancel={() => {
          setDialog(undefined);
          form.resetFields();
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          {dialog === 'revenue' ? (
            <>
              <Form.Item label={t('users.amount')} name="amount" rules={[contractRule(revenueAddBody.shape.amount)]}>
                <Input inputMode="decimal" />
              </Form.Item>
              <Form.Item label={t('users.remark')} name="remark" rules={[contractRule(revenueAddBody.shape.remark)]}>
                <Input maxLength={200} />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              label={t('users.newPassword')}
              name="password"
              extra={t('users.passwordNote')}
              rules={[contractRule(adminUserResetPassBody.shape.password)]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Drawer>
  );
}

export function UsersPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [open, setOpen] = useState<number>();
  const pages = useCursorPages(JSON.stringify(filters));
  const list = useQuery({
    queryKey: ['users', filters, pages.cursor],
    queryFn: () => apiCall('adminUserList', { query: { ...filters, cursor: pages.cursor, limit: 20 } }),
    placeholderData: keepPreviousData,
  });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <Space wrap>
          <Input.Search
            allowClear
            aria-label={t('users.search')}
            placeholder={t('users.search')}
            style={{ width: 260 }}
            onSearch={(value) => setFilters({ ...filters, q: value.trim() || undefined })}
          />
          <Select
            allowClear
            aria-label={t('users.role')}
            placeholder={t('users.anyRole')}
            style={{ width: 140 }}
            onChange={(role?: Role) => setFilters({ ...filters, role })}
            options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          />
          <Select
            allowClear
            aria-label={t('users.status')}
            placeholder={t('users.anyStatus')}
            style={{ width: 140 }}
            onChange={(frozen?: 'true' | 'false') => setFilters({ ...filters, frozen })}
            options={[
              { value: 'false', label: t('users.active') },
              { value: 'true', label: t('users.frozen') },
            ]}
          />
          <DatePicker.RangePicker
            placeholder={[t('users.joinedFrom'), t('users.joinedTo')]}
            onChange={(r) =>
              setFilters({
                ...filters,
                joinedFrom: r?.[0]?.format('YYYY-MM-DD'),
                joinedTo: r?.[1]?.format('YYYY-MM-DD'),
              })
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
        <Table<AdminUserRow>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: list.isError ? messageOf(list.error) : <Empty description={t('table.empty')} /> }}
          onRow={(row) => ({ onClick: () => setOpen(row.id), style: { cursor: 'pointer' } })}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            { title: t('users.username'), dataIndex: 'username' },
            { title: t('users.role'), render: (_, row) => t(`roles.${row.role}`) },
            {
              title: t('users.status'),
              render: (_, row) =>
                row.frozen ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>,
            },
            { title: t('users.balance'), align: 'right', render: (_, row) => rupees(row.balance) },
            { title: t('users.hold'), align: 'right', render: (_, row) => rupees(row.hold) },
            { title: t('users.earned'), align: 'right', render: (_, row) => rupees(row.totalEarned) },
            { title: t('users.withdrawn'), align: 'right', render: (_, row) => rupees(row.totalWithdrawn) },
            { title: t('users.inviter'), render: (_, row) => row.inviter?.username ?? '—' },
            { title: t('users.inviteeCount'), dataIndex: 'inviteeCount' },
            { title: t('users.joined'), render: (_, row) => dateTime(row.createdAt) },
          ]}
        />
        <Pager pages={pages} nextCursor={list.data?.nextCursor} loading={list.isFetching} />
      </Card>
      {open !== undefined && <UserDrawer userId={open} onClose={() => setOpen(undefined)} />}
    </Space>
  );
}
