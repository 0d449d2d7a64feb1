import type { FastifyInstance } from 'fastify';
import { caller, type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { createReferralsService, type ReferralsService } from './referrals.service';

function referralsHandlers(referrals: ReferralsService): Handlers {
  return {
    inviteList: (ctx) => referrals.inviteList(caller(ctx).id, ctx.query),
    adminRebateGet: () => referrals.rebateGet(),
    adminRebateSet: (ctx) => referrals.rebateSet({ id: caller(ctx).id, requestId: ctx.requestId }, ctx.body),
  };
}

export function register(app: FastifyInstance, { db }: FeatureDeps) {
  registerRoutes(app, referralsHandlers(createReferralsService({ db })));
}
