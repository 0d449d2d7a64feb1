import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { type AdminUsersService, createAdminUsersService } from './admin-users.service';
import { createDashboardService, type DashboardService, type PendingWithdrawals } from './dashboard.service';
import { createExportService, type ExportService } from './export.service';

function adminHandlers(services: {
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

/** The console's user administration, dashboard and exports. */
export function register(app: FastifyInstance, deps: FeatureDeps & { pendingWithdrawals: PendingWithdrawals }) {
  const { db, now } = deps;
  registerRoutes(
    app,
    adminHandlers({
      users: createAdminUsersService({ db }),
      dashboard: createDashboardService({ db, now, pendingWithdrawals: deps.pendingWithdrawals }),
      exports: createExportService({ db, now }),
    }),
  );
}
