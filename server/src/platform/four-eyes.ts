import { AppError } from './errors';

/**
 * Four-eyes (docs/decisions/four-eyes-approvals.md): money above a threshold of the `risk` settings moves only when a
 * second
 * staff member decides. Withdrawals and operator credits keep it differently (a withdrawal records
 * its first approval on the row; a credit above the threshold waits as a request), but the two
 * rules are these, in one place.
 */
/**
 * Strictly above the threshold. The one other place that compares is `withdraw_request`
 * (db/functions/30_withdraw_request.sql), which fixes a withdrawal's `approvals_required` on the same
 * `risk` setting (docs/decisions/sql-functions.md).
 */
export function needsSecondApprover(amountPaise: bigint, thresholdPaise: number | bigint): boolean {
  return amountPaise > BigInt(thresholdPaise);
}

/** The second decision must come from someone else than whoever made or first approved it. */
export function refuseSameApprover(firstId: number | null, actorId: number): void {
  if (firstId === actorId) throw new AppError('second_approver_required');
}
