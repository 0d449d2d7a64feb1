import { canTransition, formatRupees, WITHDRAWAL_FINAL_STATES, type WithdrawalState } from '@kamai/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { type NotificationKind, notify } from '../../platform/notifications.queries';
import { post } from '../wallet';
import * as q from './withdrawals.queries';

export { findWithdrawal, lockWithdrawal, type WithdrawalRow } from './withdrawals.queries';

const NOTIFICATION: Record<Exclude<WithdrawalState, 'pending'>, NotificationKind> = {
  approved: 'withdrawal_approved',
  processing: 'withdrawal_processing',
  paid: 'withdrawal_paid',
  failed: 'withdrawal_failed',
  rejected: 'withdrawal_rejected',
  cancelled: 'withdrawal_cancelled',
  reversed: 'withdrawal_reversed',
};

export const holdKey = (id: number) => `withdrawal:${id}:hold`;
const refundKey = (id: number) => `withdrawal:${id}:refund`;
const paidKey = (id: number) => `withdrawal:${id}:paid`;
const reversalKey = (id: number) => `withdrawal:${id}:reversal`;

export interface StateChange {
  to: Exclude<WithdrawalState, 'pending'>;
  at: Date;
  /** Reviewer's reason (rejected; a note on approved) or the gateway's failure or reversal text. */
  reason?: string | null;
  /** The bank reference of a paid withdrawal. */
  reference?: string | null;
  /** Who caused it; null for the gateway and the system. */
  actorId?: number | null;
}

/**
 * The one way a withdrawal changes state (DESIGN.md §5), inside the caller's transaction and on a row
 * the caller locked: checks the transition (409 otherwise), updates the row, appends the history,
 * moves the money (rejected/failed/cancelled: hold back to the wallet; paid: hold to platform payouts and
 * the fee to platform revenue; reversed: platform payouts back to the wallet, each keyed by the
 * withdrawal so it can happen once) and adds the user's notification.
 */
export async function changeState(tx: Tx, current: q.WithdrawalRow, change: StateChange): Promise<q.WithdrawalRow> {
  const { to, at } = change;
  if (!canTransition(current.state, to)) throw new AppError('withdrawal_state_conflict', { state: current.state });
  const final = (WITHDRAWAL_FINAL_STATES as readonly WithdrawalState[]).includes(to);
  const reviewed = to === 'approved' || to === 'rejected';
  const refunded = to === 'rejected' || to === 'failed' || to === 'cancelled';
  const row = await q.updateWithdrawalWithHistory(
    tx,
    current.id,
    {
      state: to,
      updatedAt: at,
      ...(final ? { finishedAt: at } : {}),
      ...(to === 'rejected' || to === 'failed' || to === 'reversed' ? { reason: change.reason ?? null } : {}),
      ...(to === 'paid' ? { reference: change.reference ?? null } : {}),
      ...(reviewed ? { reviewerId: change.actorId ?? null, reviewedAt: at } : {}),
      ...(to === 'processing' ? { dispatchedAt: at } : {}),
    },
    {
      fromState: current.state,
      toState: to,
      reason: (to === 'paid' ? change.reference : change.reason) || null,
      actorId: change.actorId ?? null,
      createdAt: at,
    },
  );

  const ref = { withdrawalId: row.id };
  if (refunded) {
    await post(tx, {
      type: 'withdrawal_refund',
      idempotencyKey: refundKey(row.id),
      ref,
      entries: [
        { account: { userId: row.userId, kind: 'hold' }, amount: -row.amount },
        { account: { userId: row.userId, kind: 'wallet' }, amount: row.amount },
      ],
    });
  } else if (to === 'paid') {
    await post(tx, {
      type: 'withdrawal_paid',
      idempotencyKey: paidKey(row.id),
      ref,
      // The fee, when there is one, is the platform's revenue; the payout is the rest.
      entries: [
        { account: { userId: row.userId, kind: 'hold' }, amount: -row.amount },
        { account: { kind: 'platform_payouts' }, amount: row.amount - row.fee },
        ...(row.fee > 0n ? [{ account: { kind: 'platform_revenue' as const }, amount: row.fee }] : []),
      ],
    });
  } else if (to === 'reversed') {
    await post(tx, {
      type: 'withdrawal_reversal',
      idempotencyKey: reversalKey(row.id),
      ref,
      // Undoes the paid posting: the payout (amount − fee) and the fee both go back to the wallet.
      entries: [
        { account: { kind: 'platform_payouts' }, amount: -(row.amount - row.fee) },
        ...(row.fee > 0n ? [{ account: { kind: 'platform_revenue' as const }, amount: -row.fee }] : []),
        { account: { userId: row.userId, kind: 'wallet' }, amount: row.amount },
      ],
    });
  }

  await notify(tx, {
    userId: row.userId,
    kind: NOTIFICATION[to],
    params: {
      withdrawalId: row.id,
      amount: formatRupees(row.amount),
      fee: formatRupees(row.fee),
      reason: row.reason,
      reference: row.reference,
    },
    dedupeKey: `withdrawal:${row.id}:${to}`,
  });
  return row;
}
