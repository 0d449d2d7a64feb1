import {
  BUSINESS_TIME_ZONE,
  type DashboardTrends,
  formatRupees,
  lastBusinessDays,
  startOfBusinessDay,
  TREND_DAYS,
  type TrendDay,
} from '@kamai/contract';
import type { ReplicaReads } from '../../platform/replica-reads';
import * as q from './trends.queries';

type Figure = { count: number; amount: bigint };
const STATE_FIELD = { pending: 'requested', approved: 'approved', paid: 'paid', failed: 'failed' } as const;

/** The dashboard's 30-day trends: four grouped, indexed queries, then every day filled in, zeros included. */
export function createTrendsService(deps: { replica: ReplicaReads; now: () => Date }) {
  /** Figures of 30 days: a moment stale is fine, so they are read on a replica when one is caught up. */
  async function trends(reader: number): Promise<DashboardTrends> {
    const days = lastBusinessDays(deps.now(), TREND_DAYS);
    const since = startOfBusinessDay(days[0] ?? '');
    const [signUps, states, credits, mismatches] = await deps.replica.read(reader, async (db) => [
      await q.signUpsByDay(db, since),
      await q.withdrawalStatesByDay(db, since),
      await q.creditsByDay(db, since),
      await q.mismatchesByDay(db, since),
    ]);
    const zero = (): Figure => ({ count: 0, amount: 0n });
    const byDay = new Map(
      days.map((day) => [
        day,
        {
          signUps: 0,
          requested: zero(),
          approved: zero(),
          paid: zero(),
          failed: zero(),
          rewards: 0n,
          rebates: 0n,
          mismatches: 0,
        },
      ]),
    );
    for (const row of signUps) {
      const day = byDay.get(row.day);
      if (day) day.signUps = row.count;
    }
    for (const row of states) {
      const day = byDay.get(row.day);
      const field = STATE_FIELD[row.state as keyof typeof STATE_FIELD];
      if (day && field) day[field] = { count: row.count, amount: BigInt(row.amount ?? '0') };
    }
    for (const row of credits) {
      const day = byDay.get(row.day);
      if (!day) continue;
      if (row.type === 'task_reward') day.rewards = BigInt(row.amount ?? '0');
      if (row.type === 'rebate') day.rebates = BigInt(row.amount ?? '0');
    }
    for (const row of mismatches) {
      const day = byDay.get(row.day);
      if (day) day.mismatches = row.count;
    }
    const money = (f: Figure) => ({ count: f.count, amount: formatRupees(f.amount) });
    return {
      timeZone: BUSINESS_TIME_ZONE,
      days: [...byDay].map(
        ([day, v]): TrendDay => ({
          day,
          signUps: v.signUps,
          requested: money(v.requested),
          approved: money(v.approved),
          paid: money(v.paid),
          failed: money(v.failed),
          rewards: formatRupees(v.rewards),
          rebates: formatRupees(v.rebates),
          mismatches: v.mismatches,
        }),
      ),
    };
  }

  return { trends };
}

export type TrendsService = ReturnType<typeof createTrendsService>;
