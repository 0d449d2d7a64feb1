import { BUSINESS_TIME_ZONE, businessDayStart, type DashboardData, formatRupees } from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { checkMoney, type LedgerRule } from '../wallet';
import * as q from './dashboard.queries';

/** Withdrawals waiting for review (count, gross paise, fees in paise): supplied by the withdrawals feature when it is wired in. */
export type PendingWithdrawals = (db: Executor) => Promise<{ count: number; amount: bigint; fee: bigint }>;
/** Complaints not closed and those overdue: supplied by the complaints feature. */
export type ComplaintFigures = (db: Executor) => Promise<{ open: number; overdue: number }>;

const money = (figure: { count: number; amount: bigint; fee: bigint }) => ({
  count: figure.count,
  amount: formatRupees(figure.amount),
  fee: formatRupees(figure.fee),
  net: formatRupees(figure.amount - figure.fee),
});

export function createDashboardService(deps: {
  db: Db;
  now: () => Date;
  pendingWithdrawals?: PendingWithdrawals;
  complaintFigures: ComplaintFigures;
  /** The business rules of money the ledger check runs (composed by app.ts). */
  ledgerRules: readonly LedgerRule[];
}) {
  const { db } = deps;

  async function summary(): Promise<DashboardData> {
    const dayStart = businessDayStart(deps.now());
    const userCounts = await q.countUsers(db, dayStart);
    const balances = await q.userBalancesByKind(db);
    const paid = await q.paidOutSince(db, dayStart);
    const pending = deps.pendingWithdrawals ? await deps.pendingWithdrawals(db) : null;
    const complaints = await deps.complaintFigures(db);
    const ledger = await checkMoney(db, deps.ledgerRules);
    return {
      day: { timeZone: BUSINESS_TIME_ZONE, start: dayStart.toISOString() },
      users: { total: userCounts.total, newToday: userCounts.since },
      balances: {
        wallets: formatRupees(balances.get('wallet') ?? 0n),
        holds: formatRupees(balances.get('hold') ?? 0n),
      },
      withdrawals: {
        pending: pending && money(pending),
        paidToday: money(paid),
      },
      complaints,
      ledger: {
        ok: ledger.ok,
        problemCount: ledger.problems.length,
        violationCount: ledger.rules.reduce((sum, r) => sum + r.violations, 0),
      },
    };
  }

  return { summary };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
