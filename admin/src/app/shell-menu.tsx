import type { AdminQueueCounts } from '@kamai/contract';
import { Badge, Drawer, Menu, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConsolePage } from './pages';
import { QueueBadge } from './queue-badge';

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
 * The console's menu, each list of work with its pending count. Its own chunk (antd's Menu and
 * Drawer): fetched at once on a wide screen (the sidebar), on a phone when the menu is first opened.
 */
export default function ShellMenu({ pages, current, pending, counts, onPick }: ShellMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu
      mode="inline"
      className="shell-menu"
      selectedKeys={current ? [current.path] : []}
      onClick={({ key }) => onPick(key)}
      items={pages.map((page) => ({
        key: page.path,
        icon: page.icon,
        label: page.Count ? (
          <span className="menu-label">
            {t(`menu.${page.label}`)} <page.Count />
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
      }))}
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
