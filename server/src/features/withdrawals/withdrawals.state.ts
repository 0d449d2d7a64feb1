import { canTransition, formatRupees, WITHDRAWAL_FINAL_STATES, type WithdrawalState } from '@kamai/contract';
import type { Tx } from '../../db/client';
import type { StatementPart } from '../../db/prepared';
import { AppError } from '../../platform/errors';
import { type NotificationKind, notificationPart } from '../../platform/notifications.queries';
import { lockUserShared } from '../users';
import { post } from '../wallet';
import { insertUnclaimed } from './unclaimed.queries';
import * as q from './withdrawals.queries';

export { findWithdrawal, lockWithdrawal, type WithdrawalRow, type WithdrawalView } from './withdrawals.queries';

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
  /** Columns the change fixes besides the state's own (an approval: the gateway that pays it). */
  set?: Pick<q.NewWithdrawal, 'gateway'>;
  /**
   * Other writes of the change, in its statement: data-modifying CTEs built by their owners (a job, the
   * audit row), their values as placeholders.
   */
  with?: StatementPart[];
}

/**
 * The one way a withdrawal changes state (docs/design.md "State machines"), inside the caller's transaction and on a row
 * the caller locked: checks the transition (409 otherwise), then in one statement updates the row,
 * appends the history, adds the user's notification (and its pushes) and the caller's `with`; then
 * moves the money (rejected/failed/cancelled: hold back to the wallet; paid: hold to platform payouts and
 * the fee to platform revenue; reversed: platform payouts back to the wallet, each keyed by the
 * withdrawal so it can happen once).
 */
export async function changeState(tx: Tx, current: q.WithdrawalRow, change: StateChange): Promise<q.WithdrawalRow> {
  return (await apply(tx, current, change, false)).row;
}

/** `changeState`, answering with the console's view of the result (username, history) from the same statement. */
export function changeStateWithView(tx: Tx, current: q.WithdrawalRow, change: StateChange): Promise<q.WithdrawalView> {
  return apply(tx, current, change, true);
}

async function apply(tx: Tx, current: q.WithdrawalRow, change: StateChange, view: boolean) {
  const { to, at } = change;
  if (!canTransition(current.state, to)) throw new AppError('withdrawal_state_conflict', { state: current.state });
  const final = (WITHDRAWAL_FINAL_STATES as readonly WithdrawalState[]).includes(to);
  const reviewed = to === 'approved' || to === 'rejected';
  const refunded = to === 'rejected' || to === 'failed' || to === 'cancelled';
  // Money coming back for an account deleted since goes to platform_unclaimed and the operators'
  // queue, never into the frozen wallet, and no one is notified (docs/decisions/unclaimed-money.md).
  // The share lock orders this after, or before, a deletion in flight.
  const deleted = (refunded || to === 'reversed') && Boolean((await lockUserShared(tx, current.userId))?.deletedAt);
  const values: Partial<q.NewWithdrawal> = {
    state: to,
    updatedAt: at,
    ...(final ? { finishedAt: at } : {}),
    ...(to === 'rejected' || to === 'failed' || to === 'reversed' ? { reason: change.reason ?? null } : {}),
    ...(to === 'paid' ? { reference: change.reference ?? null } : {}),
    ...(reviewed ? { reviewerId: change.actorId ?? null, reviewedAt: at } : {}),
    ...(to === 'processing' ? { dispatchedAt: at } : {}),
    ...change.set,
  };
  // The row as the update leaves it (the caller holds its lock): what the notification says.
  const next = { ...current, ...values } as q.WithdrawalRow;
  const writes: q.ChangeWrites = {
    history: {
      fromState: current.state,
      toState: to,
      reason: (to === 'paid' ? change.reference : change.reason) || null,
      actorId: change.actorId ?? null,
      createdAt: at,
    },
    also: [
      ...(deleted
        ? []
        : [
            notificationPart({
              userId: next.userId,
              kind: NOTIFICATION[to],
              params: {
                withdrawalId: next.id,
                amount: formatRupees(next.amount),
                fee: formatRupees(next.fee),
                net: formatRupees(next.amount - next.fee),
                reason: next.reason,
                reference: next.reference,
              },
              dedupeKey: `withdrawal:${next.id}:${to}`,
            }),
          ]),
      ...(change.with ?? []),
    ],
  };
  const result = view
    ? await q.updateWithdrawalWithView(tx, current, values, writes)
    : { row: await q.updateWithdrawalWith(tx, current.id, values, writes), username: '', history: [] };
  const row = result.row;

  const ref = { withdrawalId: row.id };
  // Where returned money goes: the wallet, or platform_unclaimed for a deleted account.
  const back = deleted ? { kind: 'platform_unclaimed' as const } : { userId: row.userId, kind: 'wallet' as const };
  const unclaimed = async (posted: { postingId: number; created: boolean }, kind: 'refund' | 'reversal') => {
    if (!deleted || !posted.created) return;
    await insertUnclaimed(tx, {
      userId: row.userId,
      withdrawalId: row.id,
      postingId: posted.postingId,
      amount: row.amount,
      kind,
      reason: change.reason ?? null,
      createdAt: change.at,
    });
  };
  if (refunded) {
    const posted = await post(tx, {
      type: 'withdrawal_refund',
      idempotencyKey: refundKey(row.id),
      ref,
      entries: [
        { account: { userId: row.userId, kind: 'hold' }, amount: -row.amount },
        { account: back, amount: row.amount },
      ],
    });
    await unclaimed(posted, 'refund');
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
    const posted = await post(tx, {
      type: 'withdrawal_reversal',
      idempotencyKey: reversalKey(row.id),
      ref,
      // Undoes the paid posting: the payout (amount − fee) and the fee both go back to the wallet.
      entries: [
        { account: { kind: 'platform_payouts' }, amount: -(row.amount - row.fee) },
        ...(row.fee > 0n ? [{ account: { kind: 'platform_revenue' as const }, amount: -row.fee }] : []),
        { account: back, amount: row.amount },
      ],
    });
    await unclaimed(posted, 'reversal');
  }
  return result;
}
