import { formatMoneyVars, limitRefusalFor, type WithdrawalLimitRefusal } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

/**
 * The withdrawal limits are written once, in the database (db/functions `withdrawal_limit_refusals`):
 * `withdrawal_limit_problem` refuses with the first refusal that holds the amount, under the wallet lock
 * in `withdraw_request`, and the withdraw form gets the same refusals (GET user/withdraw/limits) and finds
 * the same one with the contract's `limitRefusalFor`. Each rule at each of its edges, with the message's
 * variables as the API shows them.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const limits = { min: 10_000n, max: 5_000_000n, dailyCount: 3, dailyTotal: 10_000_000n };
type Today = { count: number; total: bigint; cancelled: number };

async function database(amount: bigint, today: Today) {
  const args = sql`${limits.min.toString()}::bigint, ${limits.max.toString()}::bigint, ${limits.dailyCount}::int,
    ${limits.dailyTotal.toString()}::bigint, ${today.count}::int, ${today.total.toString()}::bigint, ${today.cancelled}::int`;
  const result = await ctx.db.execute(sql`
    select withdrawal_limit_problem(${amount.toString()}::bigint, ${args}) as problem,
      withdrawal_limit_refusals(${args}) as refusals`);
  const [row] = (result as unknown as { rows: { problem: unknown; refusals: unknown }[] }).rows;
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  const problem = parse(row?.problem) as { key: string; vars: Record<string, unknown> } | null;
  const refusals = parse(row?.refusals) as { requestsLeft: number; refusals: WithdrawalLimitRefusal[] };
  return { problem, ...refusals };
}

const none: Today = { count: 0, total: 0n, cancelled: 0 };
const cases: [bigint, Today, { key: string; vars: Record<string, string | number> } | null][] = [
  [9_999n, none, { key: 'withdrawal_below_minimum', vars: { min: '100.00' } }],
  [10_000n, none, null],
  [5_000_000n, none, null],
  [5_000_001n, none, { key: 'withdrawal_above_maximum', vars: { max: '50000.00' } }],
  [10_000n, { count: 2, total: 0n, cancelled: 0 }, null],
  [10_000n, { count: 3, total: 0n, cancelled: 0 }, { key: 'withdrawal_daily_count_reached', vars: { count: 3 } }],
  [5_000_000n, { count: 2, total: 5_000_000n, cancelled: 0 }, null],
  [
    5_000_000n,
    { count: 2, total: 5_000_001n, cancelled: 0 },
    { key: 'withdrawal_daily_total_reached', vars: { total: '100000.00', left: '49999.99' } },
  ],
  // The day's total already past the limit (lowered since): "left" is negative.
  [
    10_000n,
    { count: 1, total: 10_000_050n, cancelled: 0 },
    { key: 'withdrawal_daily_total_reached', vars: { total: '100000.00', left: '-0.50' } },
  ],
  // Three cancellations a day use nothing of the count; each one past them counts.
  [10_000n, { count: 2, total: 0n, cancelled: 3 }, null],
  [10_000n, { count: 2, total: 0n, cancelled: 4 }, { key: 'withdrawal_daily_count_reached', vars: { count: 3 } }],
  [10_000n, { count: 0, total: 0n, cancelled: 5 }, null],
  [10_000n, { count: 0, total: 0n, cancelled: 6 }, { key: 'withdrawal_daily_count_reached', vars: { count: 3 } }],
  // The order: below the minimum before the count, the count before the total.
  [1n, { count: 3, total: 10_000_000n, cancelled: 0 }, { key: 'withdrawal_below_minimum', vars: { min: '100.00' } }],
  [
    10_000n,
    { count: 3, total: 10_000_000n, cancelled: 0 },
    { key: 'withdrawal_daily_count_reached', vars: { count: 3 } },
  ],
];

describe('the withdrawal limits', () => {
  it('refuse each rule at its edge, in the same way for the request and for the form', async () => {
    for (const [amount, today, expected] of cases) {
      const answer = await database(amount, today);
      const label = `${amount} with ${JSON.stringify({ ...today, total: String(today.total) })}`;
      const refused = answer.problem && { key: answer.problem.key, vars: formatMoneyVars(answer.problem.vars) };
      expect(refused, label).toEqual(expected);
      const form = limitRefusalFor(amount, answer.refusals);
      expect(form && { key: form.key, vars: formatMoneyVars(form.vars) }, label).toEqual(expected ?? undefined);
    }
  });

  it('count the requests left today, cancellations past the free ones included', async () => {
    expect((await database(10_000n, none)).requestsLeft).toBe(3);
    expect((await database(10_000n, { count: 1, total: 0n, cancelled: 3 })).requestsLeft).toBe(2);
    expect((await database(10_000n, { count: 1, total: 0n, cancelled: 4 })).requestsLeft).toBe(1);
    expect((await database(10_000n, { count: 2, total: 0n, cancelled: 9 })).requestsLeft).toBe(0);
  });
});
