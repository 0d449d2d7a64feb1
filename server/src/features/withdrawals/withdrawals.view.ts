import { type AdminWithdrawalItem, formatRupees, WITHDRAWAL_STATE_LABELS, type WithdrawalItem } from '@kamai/contract';
import { maskAccountNo } from '../payout-accounts';
import type { HistoryRow, WithdrawalRow } from './withdrawals.queries';

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** A withdrawal as its owner sees it: account number masked, history without who did what. */
export function toItem(row: WithdrawalRow, history: HistoryRow[]): WithdrawalItem {
  return {
    id: row.id,
    amount: formatRupees(row.amount),
    fee: formatRupees(row.fee),
    payout: formatRupees(row.amount - row.fee),
    state: row.state,
    stateLabelKey: WITHDRAWAL_STATE_LABELS[row.state],
    reason: row.reason,
    reference: row.reference,
    account: {
      id: row.accountId,
      accountType: row.accountType,
      accountNoMasked: maskAccountNo(row.accountType, row.accountNo),
      accountName: row.accountName,
      ifsc: row.ifsc,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    history: history.map((h) => ({ state: h.toState, reason: h.reason, at: h.createdAt.toISOString() })),
  };
}

/** A withdrawal as an operator sees it: the whole account number, the reviewer and every actor. */
export function toAdminItem(row: WithdrawalRow, username: string, history: HistoryRow[]): AdminWithdrawalItem {
  const item = toItem(row, history);
  return {
    ...item,
    userId: row.userId,
    username,
    account: { ...item.account, accountNo: row.accountNo },
    reviewerId: row.reviewerId,
    reviewedAt: iso(row.reviewedAt),
    history: history.map((h) => ({
      state: h.toState,
      reason: h.reason,
      at: h.createdAt.toISOString(),
      actorId: h.actorId,
    })),
    risk: { score: row.riskScore, reasons: row.riskReasons },
    approvals: {
      required: row.approvalsRequired,
      first:
        row.firstApproverId === null
          ? null
          : { reviewerId: row.firstApproverId, at: iso(row.firstApprovedAt) ?? row.updatedAt.toISOString() },
    },
  };
}

/** Groups history rows (ordered by withdrawal, then id) by withdrawal id. */
export function byWithdrawal(rows: HistoryRow[]): Map<number, HistoryRow[]> {
  const map = new Map<number, HistoryRow[]>();
  for (const row of rows) {
    const list = map.get(row.withdrawalId) ?? [];
    list.push(row);
    map.set(row.withdrawalId, list);
  }
  return map;
}
