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
import type { QueueName, RouteName } from '@kamai/contract';
import { type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from 'react';
import { UnclaimedCount } from '../features/withdrawals/components/unclaimed-count';

export interface ConsolePage {
  /** The hash path (`#/withdrawals`), named after the page; its feature folder has the server's feature name. */
  path: string;
  /** The menu's label key under `menu.`. */
  label: string;
  icon: ReactNode;
  /** The route whose roles decide whether the menu shows the page and the page opens. */
  route: RouteName;
  Page: LazyExoticComponent<ComponentType>;
  /** What waits for an operator on the page, shown beside its menu label. */
  Count?: ComponentType;
  /** The list of work the page is: its pending count (admin/queue/counts) beside the label and in the tab's title. */
  queue?: QueueName;
}

/** Every console page, in menu order; each loads on first visit. */
export const PAGES: ConsolePage[] = [
  {
    path: 'dashboard',
    label: 'dashboard',
    icon: <DashboardOutlined />,
    route: 'adminDashboard',
    Page: lazy(() => import('../features/dashboard/pages/dashboard-page')),
  },
  {
    path: 'withdrawals',
    label: 'withdrawals',
    icon: <WalletOutlined />,
    route: 'adminWithdrawList',
    Page: lazy(() => import('../features/withdrawals/pages/withdrawals-page')),
    queue: 'withdrawals',
  },
  {
    path: 'payout-mismatches',
    label: 'mismatches',
    icon: <WarningOutlined />,
    route: 'adminPayoutMismatches',
    Page: lazy(() => import('../features/payouts/pages/mismatches-page')),
    queue: 'mismatches',
  },
  {
    path: 'unclaimed',
    label: 'unclaimed',
    icon: <InboxOutlined />,
    route: 'adminUnclaimedList',
    Page: lazy(() => import('../features/withdrawals/pages/unclaimed-page')),
    Count: UnclaimedCount,
  },
  {
    path: 'ledger',
    label: 'ledger',
    icon: <SafetyCertificateOutlined />,
    route: 'adminLedgerCheck',
    Page: lazy(() => import('../features/wallet/pages/ledger-page')),
  },
  {
    path: 'account-checks',
    label: 'accountChecks',
    icon: <SafetyCertificateOutlined />,
    route: 'adminAccountChecks',
    Page: lazy(() => import('../features/account-checks/pages/account-checks-page')),
    queue: 'accountChecks',
  },
  {
    path: 'complaints',
    label: 'complaints',
    icon: <CommentOutlined />,
    route: 'adminComplaintList',
    Page: lazy(() => import('../features/complaints/pages/complaints-page')),
    queue: 'complaints',
  },
  {
    path: 'users',
    label: 'users',
    icon: <TeamOutlined />,
    route: 'adminUserList',
    Page: lazy(() => import('../features/users/pages/users-page')),
  },
  {
    path: 'credits',
    label: 'credits',
    icon: <DollarOutlined />,
    route: 'adminCreditRequestList',
    Page: lazy(() => import('../features/credits/pages/credits-page')),
  },
  {
    path: 'changes',
    label: 'changes',
    icon: <SafetyOutlined />,
    route: 'adminControlList',
    Page: lazy(() => import('../features/control/pages/changes-page')),
  },
  {
    path: 'tasks',
    label: 'tasks',
    icon: <ScheduleOutlined />,
    route: 'adminTaskList',
    Page: lazy(() => import('../features/tasks/pages/tasks-page')),
  },
  {
    path: 'proofs',
    label: 'proofs',
    icon: <FileImageOutlined />,
    route: 'adminTaskProofList',
    Page: lazy(() => import('../features/tasks/pages/proofs-page')),
    queue: 'proofs',
  },
  {
    path: 'notices',
    label: 'notices',
    icon: <NotificationOutlined />,
    route: 'adminNoticeList',
    Page: lazy(() => import('../features/notices/pages/notices-page')),
  },
  {
    path: 'settings',
    label: 'settings',
    icon: <SettingOutlined />,
    route: 'adminSettingsGet',
    Page: lazy(() => import('../features/settings/pages/settings-page')),
  },
  {
    path: 'pages',
    label: 'pages',
    icon: <FileTextOutlined />,
    route: 'adminPageGet',
    Page: lazy(() => import('../features/account/pages/pages-page')),
  },
  {
    path: 'linked-accounts',
    label: 'linked',
    icon: <LinkOutlined />,
    route: 'adminWsList',
    Page: lazy(() => import('../features/linked-accounts/pages/linked-accounts-page')),
  },
  {
    path: 'otp',
    label: 'outbox',
    icon: <MailOutlined />,
    route: 'adminOtpOutbox',
    Page: lazy(() => import('../features/otp/pages/outbox-page')),
  },
  {
    path: 'deliveries',
    label: 'deliveries',
    icon: <MessageOutlined />,
    route: 'adminOtpDeliveries',
    Page: lazy(() => import('../features/otp/pages/deliveries-page')),
  },
  {
    path: 'audit',
    label: 'audit',
    icon: <AuditOutlined />,
    route: 'adminAuditList',
    Page: lazy(() => import('../features/audit/pages/audit-page')),
  },
];

/** Hash paths of earlier console versions, kept so old links still land. */
export const OLD_PATHS: Record<string, string> = { linked: 'linked-accounts', outbox: 'otp' };
