import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import type { LedgerRule } from '../wallet';
import { type AdminUsersService, createAdminUsersService } from './admin-users.service';
import {
  type ComplaintFigures,
  createDashboardService,
  type DashboardService,
  type PendingWithdrawals,
} from './dashboard.service';
import { createExportService, type ExportService } from './export.service';
import { createQueueCountsService, type QueueCountsService } from './queue-counts.service';
import { createTrendsService, type TrendsService } from './trends.service';

function adminHandlers(services: {
  users: AdminUsersService;
  dashboard: DashboardService;
  trends: TrendsService;
  exports: ExportService;
  queues: QueueCountsService;
}): Handlers {
  const { users, dashboard, trends, exports, queues } = services;
  return {
    adminUserList: (ctx) => users.list(ctx.query, ctx.actor.id),
    adminUserDetail: (ctx) => users.detail(ctx.query.id),
    adminUserFreeze: (ctx) => users.freeze(ctx.actor, ctx.body),
    adminUserRole: (ctx) => users.setRole(ctx.actor, ctx.body),
    adminUserResetPassword: (ctx) => users.resetPassword(ctx.actor, ctx.body),
    adminDashboard: () => dashboard.summary(),
    adminDashboardTrends: (ctx) => trends.trends(ctx.actor.id),
    adminQueueCounts: (ctx) => queues.counts(ctx.user.role),
    adminExportUsers: async (ctx) => exports.users(ctx.query, ctx.actor.id),
    adminExportMovements: async (ctx) => exports.movements(ctx.query, ctx.actor.id),
    adminExportWithdrawals: async (ctx) => exports.withdrawals(ctx.query, ctx.actor.id),
  };
}

/** The console's user administration, dashboard, pending counts and exports; answers the dual-control kinds of role and unfreeze. */
export function register(
  app: FastifyInstance,
  deps: FeatureDeps & {
    pendingWithdrawals: PendingWithdrawals;
    ledgerRules: readonly LedgerRule[];
    complaintFigures: ComplaintFigures;
  },
) {
  const { db, replica, now } = deps;
  const users = createAdminUsersService({ db, replica, now });
  registerRoutes(
    app,
    adminHandlers({
      users,
      dashboard: createDashboardService({
        db,
        now,
        pendingWithdrawals: deps.pendingWithdrawals,
        ledgerRules: deps.ledgerRules,
        complaintFigures: deps.complaintFigures,
      }),
      trends: createTrendsService({ replica, now }),
      exports: createExportService({ replica, now }),
      queues: createQueueCountsService({ db, complaintFigures: deps.complaintFigures }),
    }),
  );
  return { roleControl: users.roleControl, unfreezeControl: users.unfreezeControl };
}
