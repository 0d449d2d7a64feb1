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

/** Answers the dual-control kind of the rebate rates and hold (app.ts hands it to the control routes). */
export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  const admin = createReferralsAdmin({ db, now });
  registerRoutes(app, referralsHandlers(createReferralsService({ db }), admin));
  return { rebateControl: admin.rebateControl };
}
