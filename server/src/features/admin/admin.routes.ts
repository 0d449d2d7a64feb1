import { caller, type Handlers } from '../../platform/routes';
import type { AdminUsersService } from './admin-users.service';
import type { DashboardService } from './dashboard.service';
import type { ExportService } from './export.service';

export function adminHandlers(services: {
  users: AdminUsersService;
  dashboard: DashboardService;
  exports: ExportService;
}): Handlers {
  const { users, dashboard, exports } = services;
  const actor = (ctx: { user: Parameters<typeof caller>[0]['user']; requestId: string }) => ({
    id: caller(ctx).id,
    requestId: ctx.requestId,
  });
  return {
    adminUserList: (ctx) => users.list(ctx.query),
    adminUserDetail: (ctx) => users.detail(ctx.query.id),
    adminUserFreeze: (ctx) => users.freeze(actor(ctx), ctx.body),
    adminUserRole: (ctx) => users.setRole(actor(ctx), ctx.body),
    adminUserResetPassword: (ctx) => users.resetPassword(actor(ctx), ctx.body),
    adminDashboard: () => dashboard.summary(),
    adminExportUsers: async (ctx) => exports.users(ctx.query),
    adminExportMovements: async (ctx) => exports.movements(ctx.query),
    adminExportWithdrawals: async (ctx) => exports.withdrawals(ctx.query),
  };
}
