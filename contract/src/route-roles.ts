import { endpoints } from './endpoints';
import { ADMIN, type StaffRole } from './route-def';

type EndpointName = keyof typeof endpoints;

/**
 * Who may call each route, without its schemas: what the console needs to build its menu and guard its
 * pages, so that neither zod nor the route table loads with it. `routes` (routes.ts) stays the source
 * the server enforces; route-roles.test.ts fails, naming the route, when this table says otherwise.
 *
 * A route is staff-only (`policy: 'admin'`) when it lives under the admin prefix, or is listed here.
 */
const STAFF_ELSEWHERE: readonly EndpointName[] = ['objOtpSms', 'objOtpEmail'];

/** The staff routes reviewers are let in on (`roles: STAFF`); every other staff route is the admins'. */
export const REVIEWER_ROUTES: readonly EndpointName[] = [
  'adminAccountCheckDecide',
  'adminAccountChecks',
  'adminAuditList',
  'adminBalanceList',
  'adminComplaintAcknowledge',
  'adminComplaintClose',
  'adminComplaintList',
  'adminComplaintReply',
  'adminComplaintSummary',
  'adminControlList',
  'adminDashboard',
  'adminDashboardTrends',
  'adminIntroGet',
  'adminLedgerCheck',
  'adminPayoutMismatches',
  'adminPayoutReconciliation',
  'adminQueueCounts',
  'adminRebateGet',
  'adminSettingsGet',
  'adminTaskDetail',
  'adminTaskList',
  'adminTaskProofList',
  'adminTaskProofReview',
  'adminUnclaimedList',
  'adminUserDetail',
  'adminUserList',
  'adminWithdrawList',
  'adminWithdrawReview',
  'adminWsRateGet',
];

const ADMIN_ONLY: readonly StaffRole[] = ['admin'];
const STAFF: readonly StaffRole[] = ['admin', 'reviewer'];
const NONE: readonly StaffRole[] = [];

/** The roles let in on route `name`, as `rolesOf(routes[name])` answers: none for public and user routes. */
export function staffRolesOf(name: EndpointName): readonly StaffRole[] {
  const staffOnly = endpoints[name].path.startsWith(`${ADMIN}/`) || STAFF_ELSEWHERE.includes(name);
  if (!staffOnly) return NONE;
  return REVIEWER_ROUTES.includes(name) ? STAFF : ADMIN_ONLY;
}
