import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { withdrawReview } from './writes-review';
import { taskFinish } from './writes-task';
import { withdrawAdd } from './writes-withdraw';

/**
 * The yardstick of benchmarks 3 and 4 (docs/decisions/hot-read-yardstick.md, "The writes"): the three
 * money writes — `withdraw/add`, `task/finish` (with both rebate levels) and `withdraw/review`
 * (approve) — written by hand with Fastify 5 and node-postgres on Kamai's own database, with Kamai's
 * checks in Kamai's order and the same rows (wallet lock, limits, risk score, the hold posting and its
 * entries, the idempotency key, rebates, the completion, notification, jobs and the audit row), one
 * transaction each, a few named statements each. No ORM, no plugins, no hooks. Shared with Kamai:
 * the message catalogue and the product's pure rules from the contract (rupee parsing, the limits
 * rule, the state machine), the settings' defaults, and the risk score's SQL functions of the schema.
 * It covers what the benchmarks and server/test/write-competitor.test.ts send: automatic tasks other
 * than invites, approval only, payout accounts without a verified bank name to compare.
 */
export function writeCompetitor(pool: pg.Pool): FastifyInstance {
  const app = Fastify();
  withdrawAdd(app, pool);
  taskFinish(app, pool);
  withdrawReview(app, pool);
  app.get('/ready', async () => ({ ok: true }));
  return app;
}

export function competitorPool(databaseUrl: string | undefined): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl, max: 20 });
}
