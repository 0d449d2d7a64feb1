import type { AdminUserDetail } from '@kamai/contract';
import { Empty, Tree, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { dateTime, phoneNumber } from '../../../lib/format';

/** The user's invitees and theirs, two levels deep. */
export function InviteTree({ tree }: { tree: AdminUserDetail['inviteTree'] }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Title level={5}>{t('users.inviteTree', { count: tree.count })}</Typography.Title>
      {tree.items.length === 0 ? (
        <Empty description={t('table.empty')} />
      ) : (
        <Tree
          defaultExpandAll
          treeData={tree.items.map((item) => ({
            key: item.id,
            title: `${phoneNumber(item.username)} #${item.id} · ${dateTime(item.createdAt)} · ${t('users.invitees', { count: item.inviteeCount })}`,
            children: item.invitees.map((child) => ({
              key: child.id,
              title: `${phoneNumber(child.username)} #${child.id} · ${dateTime(child.createdAt)}`,
            })),
          }))}
        />
      )}
    </div>
  );
}
