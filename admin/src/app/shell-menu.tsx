import {
  AuditOutlined,
  CommentOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileImageOutlined,
  FileTextOutlined,
  InboxOutlined,
  LinkOutlined,
  MailOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { AdminQueueCounts } from '@kamai/contract';
import { Badge, Drawer, Menu, Space } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UnclaimedCount } from '../features/withdrawals/components/unclaimed-count';
import type { ConsolePage } from './pages';
import { QueueBadge } from './queue-badge';

/** Each page's icon in the menu, by its path. */
const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  withdrawals: <WalletOutlined />,
  'payout-mismatches': <WarningOutlined />,
  unclaimed: <InboxOutlined />,
  ledger: <SafetyCertificateOutlined />,
  'account-checks': <SafetyCertificateOutlined />,
  complaints: <CommentOutlined />,
  users: <TeamOutlined />,
  credits: <DollarOutlined />,
  changes: <SafetyOutlined />,
  tasks: <ScheduleOutlined />,
  proofs: <FileImageOutlined />,
  notices: <NotificationOutlined />,
  settings: <SettingOutlined />,
  pages: <FileTextOutlined />,
  'linked-accounts': <LinkOutlined />,
  otp: <MailOutlined />,
  deliveries: <MessageOutlined />,
  audit: <AuditOutlined />,
};

/** What waits for an operator on a page that is no list of work with a queue count, beside its label. */
const COUNTS: Record<string, ComponentType> = { unclaimed: UnclaimedCount };

export interface ShellMenuProps {
  /** The pages the role may open, in menu order. */
  pages: ConsolePage[];
  current: ConsolePage | undefined;
  /** Control changes awaiting a second admin (beside "Changes"). */
  pending: number;
  counts: AdminQueueCounts | undefined;
  onPick: (path: string) => void;
}

/**
 * The console's menu, each page with its icon and each list of work with its pending count. Its own
 * chunk (antd's Menu, Badge and Drawer, the icons): fetched at once on a wide screen (the sidebar), on
 * a phone when the menu is first opened.
 */
export default function ShellMenu({ pages, current, pending, counts, onPick }: ShellMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu
      mode="inline"
      className="shell-menu"
      selectedKeys={current ? [current.path] : []}
      onClick={({ key }) => onPick(key)}
      items={pages.map((page) => {
        const Count = COUNTS[page.path];
        return {
          key: page.path,
          icon: ICONS[page.path],
          label: Count ? (
            <span className="menu-label">
              {t(`menu.${page.label}`)} <Count />
            </span>
          ) : page.queue ? (
            <span className="menu-label">
              {t(`menu.${page.label}`)} <QueueBadge queue={page.queue} counts={counts} />
            </span>
          ) : page.path === 'changes' && pending > 0 ? (
            <Space size="small">
              {t(`menu.${page.label}`)}
              <Badge count={pending} />
            </Space>
          ) : (
            t(`menu.${page.label}`)
          ),
        };
      })}
    />
  );
}

/** On a phone the menu lives in a drawer from the left, behind the header's menu button. */
export function MenuDrawer({ open, onClose, ...menu }: ShellMenuProps & { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      width={260}
      title={t('layout.brand')}
      styles={{ body: { padding: 0 } }}
    >
      <ShellMenu {...menu} />
    </Drawer>
  );
}
