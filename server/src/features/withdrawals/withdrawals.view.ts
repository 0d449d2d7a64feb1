import {
  type AdminWithdrawalItem,
  formatRupees,
  type Locale,
  rejectReasonText,
  WITHDRAWAL_STATE_LABELS,
  type WithdrawalItem,
  type WithdrawalState,
  withdrawalTimeline,
} from '@kamai/contract';
import { maskAccountNo, namesCompared, type OtherName, type PayeeCheck, verificationOf } from '../payout-accounts';
import type { HistoryRow, WithdrawalRow } from './withdrawals.queries';

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * A withdrawal as its owner sees it: account number masked, history without who did what; with
 * `locale`, a rejection's preset reason in the owner's language (the console reads the stored form).
 */
export function toItem(row: WithdrawalRow, history: HistoryRow[], locale?: Locale): WithdrawalItem {
  const reasonOf = (reason: string | null) => (locale ? rejectReasonText(reason, locale) : reason);
  const shown = history.map((h) => ({ state: h.toState, reason: reasonOf(h.reason), at: h.createdAt.toISOString() }));
  return {
    id: row.id,
    amount: formatRupees(row.amount),
    fee: formatRupees(row.fee),
    payout: formatRupees(row.amount - row.fee),
    state: row.state,
    stateLabelKey: WITHDRAWAL_STATE_LABELS[row.state],
    reason: reasonOf(row.reason),
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
    history: shown,
    timeline: withdrawalTimeline(
      { state: row.state, reference: row.reference, createdAt: row.createdAt.toISOString() },
      shown,
    ),
    returned: RETURNED_STATES.includes(row.state) ? formatRupees(row.amount) : null,
  };
}

/** States whose whole amount went back to the wallet (`changeState`'s refund and reversal postings). */
const RETURNED_STATES: readonly WithdrawalState[] = ['rejected', 'cancelled', 'failed', 'reversed'];

/**
 * The check of the number a withdrawal pays, the names on its owner's other accounts (not that
 * number's) and the `accountValidation.nameMatchMin` in force: what the review queue judges names by.
 */
export interface PayeeNames {
  check: PayeeCheck;
  others: OtherName[];
  nameMatchMin: number;
}

/** A withdrawal as an operator sees it: the whole account number, the reviewer and every actor. */
export function toAdminItem(
  row: WithdrawalRow,
  username: string,
  history: HistoryRow[],
  payee?: PayeeNames,
): AdminWithdrawalItem {
  const item = toItem(row, history);
  const check = payee?.check;
  const verification = verificationOf(check);
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
    payeeCheck:
      payee && verification
        ? {
            ...verification,
            // Staff see the bank's answer even when it refused the account.
            registeredName: payee.check.registeredName,
            ...namesCompared(row, payee.check, verification, payee.others, payee.nameMatchMin),
          }
        : null,
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
