import { BUSINESS_TIME_ZONE, type DashboardData, formatRupees } from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { businessDayStart } from '../../platform/business-day';
import { checkLedger } from '../wallet';
import * as q from './dashboard.queries';

/** Withdrawals waiting for review: supplied by the withdrawals feature when it is wired in. */
export type PendingWithdrawals = (db: Executor) => Promise<{ count: number; amount: bigint }>;

export function createDashboardService(deps: { db: Db; now: () => Date; pendingWithdrawals?: PendingWithdrawals }) {
  const { db } = deps;

  async function summary(): Promise<DashboardData> {
    const dayStart = businessDayStart(deps.now());
    const userCounts = await q.countUsers(db, dayStart);
    const balances = await q.userBalancesByKind(db);
    const paid = await q.paidOutSince(db, dayStart);
    const pending = deps.pendingWithdrawals ? await deps.pendingWithdrawals(db) : null;
    const ledger = await checkLedger(db);
    return {
      day: { timeZone: BUSINESS_TIME_ZONE, start: dayStart.toISOString() },
      users: { total: userCounts.total, newToday: userCounts.since },
      balances: {
        wallets: formatRupees(balances.get('wallet') ?? 0n),
        holds: formatRupees(balances.get('hold') ?? 0n),
      },
      withdrawals: {
        pending: pending && { count: pending.count, amount: formatRupees(pending.amount) },
        paidToday: { count: paid.count, amount: formatRupees(paid.amount) },
      },
      ledger: { ok: ledger.ok, problemCount: ledger.problems.length },
    };
  }

  return { summary };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
