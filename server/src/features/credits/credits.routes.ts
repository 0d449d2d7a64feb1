import type { FastifyInstance } from 'fastify';
import { keyedCalls } from '../../platform/idempotency';
import { type FeatureDeps, type Handlers, registerRoutes } from '../../platform/routes';
import { type CreditsAdmin, createCreditsAdmin } from './credits.admin';

function creditHandlers(credits: CreditsAdmin, { db, now }: Pick<FeatureDeps, 'db' | 'now'>): Handlers {
  // With an Idempotency-Key a retried credit or decision answers as the first did (platform/idempotency.ts).
  const once = keyedCalls(db, (tx) => createCreditsAdmin({ db: tx, now }));
  return {
    adminCreditAdd: (ctx) => once(ctx, 'admin.revenue.add', (admin) => admin.add(ctx.actor, ctx.body)),
    adminBalanceList: (ctx) => credits.balanceList(ctx.query),
    adminCreditRequestList: (ctx) => credits.requestList(ctx.query),
    adminCreditReview: (ctx) => once(ctx, 'admin.revenue.review', (admin) => admin.review(ctx.actor, ctx.body)),
  };
}

export function register(app: FastifyInstance, { db, now }: FeatureDeps) {
  registerRoutes(app, creditHandlers(createCreditsAdmin({ db, now }), { db, now }));
}
