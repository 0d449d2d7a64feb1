import { ROLES, type Role } from '@kamai/contract';
import { App, Button, Descriptions, Drawer, Popconfirm, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/data-table';
import { messageOf } from '../../../lib/api';
import { dateTime, phoneNumber, rupees } from '../../../lib/format';
import { useCan, useMe } from '../../../lib/roles';
import { UserLinkedAccounts } from '../../linked-accounts';
import { UserWithdrawals } from '../../withdrawals';
import { useUserDetail } from '../api/get-users';
import { useFreezeUser, useSetRole } from '../api/user-actions';
import { InviteTree } from './invite-tree';
import { CreditDialog, PasswordDialog } from './user-dialogs';

export function FrozenTag({ frozen, deleted = false }: { frozen: boolean; deleted?: boolean }) {
  const { t } = useTranslation();
  if (deleted) return <Tag>{t('users.deleted')}</Tag>;
  return frozen ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>;
}

/** One user: wallet figures, staff actions (not on oneself), movements, withdrawals, numbers, invitees. */
export function UserDrawer({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const can = useCan();
  const me = useMe();
  const [dialog, setDialog] = useState<'credit' | 'password'>();
  const detail = useUserDetail(userId);
  const freeze = useFreezeUser(userId);
  const role = useSetRole(userId);

  const data = detail.data;
  const self = data?.user.id === me.id;
  return (
    <Drawer open size={720} onClose={onClose} title={data ? `${phoneNumber(data.user.username)} #${data.user.id}` : ''}>
      {!data ? (
        detail.isError ? (
          <Typography.Text type="danger">{messageOf(detail.error)}</Typography.Text>
        ) : (
          <Skeleton active />
        )
      ) : (
        <Space orientation="vertical" size="large" className="stack">
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('users.role')}>{t(`roles.${data.user.role}`)}</Descriptions.Item>
            <Descriptions.Item label={t('users.status')}>
              <FrozenTag frozen={data.user.frozen} deleted={data.user.deleted} />
            </Descriptions.Item>
            <Descriptions.Item label={t('users.balance')}>{rupees(data.user.balance)}</Descriptions.Item>
            <Descriptions.Item label={t('users.hold')}>{rupees(data.user.hold)}</Descriptions.Item>
            <Descriptions.Item label={t('users.earned')}>{rupees(data.user.totalEarned)}</Descriptions.Item>
            <Descriptions.Item label={t('users.withdrawn')}>{rupees(data.user.totalWithdrawn)}</Descriptions.Item>
            <Descriptions.Item label={t('users.inviteCode')}>{data.user.inviteCode}</Descriptions.Item>
            <Descriptions.Item label={t('users.inviter')}>
              {data.user.inviter ? `${phoneNumber(data.user.inviter.username)} #${data.user.inviter.id}` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.joined')}>{dateTime(data.user.createdAt)}</Descriptions.Item>
          </Descriptions>
          {/* A deleted account is final: nothing here would apply to it (the server refuses it too). */}
          {can('adminUserFreeze') && !self && !data.user.deleted && (
            <Space wrap>
              <Popconfirm
                title={
                  data.user.frozen
                    ? t(data.user.role === 'user' ? 'users.unfreezeConfirm' : 'control.unfreezeStaff')
                    : t('users.freezeConfirm')
                }
                okText={t('actions.confirm')}
                cancelText={t('actions.cancel')}
                onConfirm={() => freeze.mutateAsync(!data.user.frozen).catch(() => undefined)}
              >
                <Button danger={!data.user.frozen}>{data.user.frozen ? t('users.unfreeze') : t('users.freeze')}</Button>
              </Popconfirm>
              <Select
                aria-label={t('users.role')}
                value={data.user.role}
                className="field-s"
                options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                onChange={(value: Role) =>
                  modal.confirm({
                    title: t('users.roleConfirm', { role: t(`roles.${value}`) }),
                    content: t('control.roleProposed'),
                    okText: t('actions.confirm'),
                    cancelText: t('actions.cancel'),
                    onOk: () => role.mutateAsync(value).catch(() => undefined),
                  })
                }
              />
              {data.user.role === 'user' ? (
                <Button onClick={() => setDialog('password')}>{t('users.resetPassword')}</Button>
              ) : (
                <Typography.Text type="secondary">{t('control.staffPassword')}</Typography.Text>
              )}
              <Button type="primary" onClick={() => setDialog('credit')}>
                {t('users.creditAdd')}
              </Button>
            </Space>
          )}
          <div>
            <DataTable
              title={t('users.movements')}
              size="small"
              rows={data.movements}
              columns={[
                { title: t('audit.time'), render: (_, row) => dateTime(row.createdAt) },
                { title: t('users.movementType'), render: (_, row) => t(`postingTypes.${row.type}`) },
                { title: t('withdrawals.amount'), align: 'right', render: (_, row) => rupees(row.amount) },
                { title: t('users.balance'), align: 'right', render: (_, row) => rupees(row.balanceAfter) },
              ]}
            />
          </div>
          <UserWithdrawals userId={userId} />
          <UserLinkedAccounts userId={userId} />
          <InviteTree tree={data.inviteTree} />
        </Space>
      )}
      {dialog === 'credit' && <CreditDialog userId={userId} onClose={() => setDialog(undefined)} />}
      {dialog === 'password' && <PasswordDialog userId={userId} onClose={() => setDialog(undefined)} />}
    </Drawer>
  );
}
