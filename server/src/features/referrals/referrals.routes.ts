import type { FastifyInstance } from 'fastify';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createReferralsAdmin, type ReferralsAdmin } from './referrals.admin';
import { createReferralsService, type ReferralsService } from './referrals.service';

function referralsHandlers(referrals: ReferralsService, admin: ReferralsAdmin): Handlers {
  return {
    inviteList: (ctx) => referrals.inviteList(ctx.user.id, ctx.query),
    adminRebateGet: () => admin.rebateGet(),
    adminRebateSet: (ctx) => admin.rebateSet(ctx.actor, ctx.body),
    adminUserDuplicate: (ctx) => admin.userDuplicate(ctx.actor, ctx.body),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, referralsHandlers(createReferralsService({ db }), createReferralsAdmin({ db, now })));
}
