import { formatRupees, withdrawalLimitProblem } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

/**
 * withdraw/add's limits are applied by the database (migration 0029's `withdrawal_limit_problem`,
 * inside `withdraw_request`); the web form warns early with the contract's `withdrawalLimitProblem`.
 * The two must give the same verdict, key and variables for every amount, setting and day's usage.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

/** Near the interesting edges as often as anywhere else. */
const paise = (max: bigint) =>
  fc.oneof(fc.bigInt({ min: 0n, max }), fc.constantFrom(0n, 1n, 99n, 100n, 10_000n, 5_000_000n, 10_000_000n));

const sample = fc.record({
  amount: fc.oneof(fc.bigInt({ min: 1n, max: 20_000_000n }), fc.constantFrom(1n, 9_999n, 10_000n, 5_000_000n)),
  limits: fc.record({
    min: paise(10_000_000n),
    max: paise(20_000_000n),
    dailyCount: fc.integer({ min: 0, max: 5 }),
    dailyTotal: paise(30_000_000n),
  }),
  today: fc.record({
    count: fc.integer({ min: 0, max: 6 }),
    total: paise(30_000_000n),
    cancelled: fc.integer({ min: 0, max: 12 }),
  }),
});
type Sample = typeof sample extends fc.Arbitrary<infer T> ? T : never;

async function databaseVerdict({ amount, limits, today }: Sample) {
  const result = await ctx.db.execute(sql`
    select withdrawal_limit_problem(${amount.toString()}::bigint, ${limits.min.toString()}::bigint,
      ${limits.max.toString()}::bigint, ${limits.dailyCount}::int, ${limits.dailyTotal.toString()}::bigint,
      ${today.count}::int, ${today.total.toString()}::bigint, ${today.cancelled}::int) as problem`);
  const [row] = (result as unknown as { rows: { problem: unknown }[] }).rows;
  return row?.problem ?? undefined;
}

describe('the withdrawal limits in the database and in the contract', () => {
  it('agree on the verdict, the message key and its variables', async () => {
    await fc.assert(
      fc.asyncProperty(sample, async (s) => {
        const expected = withdrawalLimitProblem(s.amount, s.limits, s.today, formatRupees);
        expect(await databaseVerdict(s)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('agree at each boundary of each rule', async () => {
    const limits = { min: 10_000n, max: 5_000_000n, dailyCount: 3, dailyTotal: 10_000_000n };
    const cases: Sample[] = [
      { amount: 9_999n, limits, today: { count: 0, total: 0n, cancelled: 0 } },
      { amount: 10_000n, limits, today: { count: 0, total: 0n, cancelled: 0 } },
      { amount: 5_000_000n, limits, today: { count: 0, total: 0n, cancelled: 0 } },
      { amount: 5_000_001n, limits, today: { count: 0, total: 0n, cancelled: 0 } },
      { amount: 10_000n, limits, today: { count: 2, total: 0n, cancelled: 0 } },
      { amount: 10_000n, limits, today: { count: 3, total: 0n, cancelled: 0 } },
      { amount: 5_000_000n, limits, today: { count: 2, total: 5_000_000n, cancelled: 0 } },
      { amount: 5_000_000n, limits, today: { count: 2, total: 5_000_001n, cancelled: 0 } },
      // The day's total already past the limit (lowered since): "left" is negative.
      { amount: 10_000n, limits, today: { count: 1, total: 10_000_050n, cancelled: 0 } },
      // Three cancellations a day use nothing of the count; each one past them counts.
      { amount: 10_000n, limits, today: { count: 2, total: 0n, cancelled: 3 } },
      { amount: 10_000n, limits, today: { count: 2, total: 0n, cancelled: 4 } },
      { amount: 10_000n, limits, today: { count: 0, total: 0n, cancelled: 5 } },
      { amount: 10_000n, limits, today: { count: 0, total: 0n, cancelled: 6 } },
    ];
    for (const c of cases) {
      expect(await databaseVerdict(c)).toEqual(withdrawalLimitProblem(c.amount, c.limits, c.today, formatRupees));
    }
  });
});
