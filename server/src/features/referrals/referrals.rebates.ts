import type { Db, Executor, Tx } from '../../db/client';
import { post } from '../wallet';
import * as q from './referrals.queries';

/** Why a pending rebate was taken back (the `rebates` row's `reason`). */
export type RebateReversalReason = 'source_reversed' | NonNullable<q.DueRebate['reverse']>;

/** How many due rebates one release transaction settles; the job loops until none is due. */
const RELEASE_BATCH = 200;

async function release(tx: Tx, rebate: q.DueRebate, now: Date) {
  const posted = await post(tx, {
    type: 'rebate',
    idempotencyKey: `rebate:${rebate.id}:release`,
    ref: {
      inviteeId: rebate.inviteeId,
      level: rebate.level,
      rebateId: rebate.id,
      sourcePostingId: rebate.sourcePostingId,
    },
    entries: [
      { account: { userId: rebate.earnerId, kind: 'rebate_pending' }, amount: -rebate.amount },
      { account: { userId: rebate.earnerId, kind: 'wallet' }, amount: rebate.amount },
    ],
  });
  await q.settleRebate(tx, rebate.id, {
    state: 'available',
    settlePostingId: posted.postingId,
    reason: null,
    settledAt: now,
  });
}

async function reverse(tx: Tx, rebate: q.DueRebate, reason: RebateReversalReason, now: Date) {
  const posted = await post(tx, {
    type: 'rebate_reversal',
    idempotencyKey: `rebate:${rebate.id}:reversal`,
    ref: {
      inviteeId: rebate.inviteeId,
      level: rebate.level,
      rebateId: rebate.id,
      sourcePostingId: rebate.sourcePostingId,
    },
    entries: [
      { account: { userId: rebate.earnerId, kind: 'rebate_pending' }, amount: -rebate.amount },
      { account: { kind: 'platform_rewards' }, amount: rebate.amount },
    ],
  });
  await q.settleRebate(tx, rebate.id, { state: 'reversed', settlePostingId: posted.postingId, reason, settledAt: now });
}

/**
 * The release job (a periodic task of every process): rebates whose hold ended by `now` move from the
 * earner's pending rebates to the wallet, one posting each keyed `rebate:<id>:release`. One whose
 * earner became staff or deleted the account, or whose invitee was found a duplicate identity, is
 * reversed instead. Rows are claimed with SKIP LOCKED, so two processes never settle one twice.
 * Answers how many were released and reversed.
 */
export async function releaseDueRebates(db: Db, now: Date) {
  let released = 0;
  let reversed = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const due = await q.lockDueRebates(tx, now, RELEASE_BATCH);
      for (const rebate of due) {
        if (rebate.reverse) {
          await reverse(tx, rebate, rebate.reverse, now);
          reversed += 1;
        } else {
          await release(tx, rebate, now);
          released += 1;
        }
      }
      return due.length;
    });
    if (batch < RELEASE_BATCH) return { released, reversed };
  }
}

/**
 * Reverses, in the caller's transaction, the pending rebates (both levels) owed on one task reward or
 * on every reward of one invitee. Released (available) rebates stay: the hold is the window in which
 * a reward can still be found wrong (docs/decisions/rebate-hold.md). Answers how many were reversed.
 */
export async function reversePendingRebates(
  tx: Tx,
  of: { sourcePostingId: number } | { inviteeId: number },
  reason: RebateReversalReason,
  now: Date,
) {
  const pending = await q.lockPendingRebates(tx, of);
  for (const rebate of pending) await reverse(tx, rebate, reason, now);
  return pending.length;
}

export interface RebateRuleViolation {
  rule: 'rebate_to_staff' | 'rebate_without_source';
  postingIds: string[];
  detail: string;
}

/**
 * The referral rules the ledger check sees (docs/decisions/rebate-hold.md): no rebate posting pays a
 * staff account (one that was staff when it was posted), and every rebate posting traces to an
 * eligible task reward of the right invitee, at the right level and amount.
 */
export async function rebateRuleViolations(db: Executor): Promise<RebateRuleViolation[]> {
  const violations: RebateRuleViolation[] = [];
  for (const row of await q.rebatesToStaff(db)) {
    violations.push({
      rule: 'rebate_to_staff',
      postingIds: [String(row.postingId)],
      detail: `rebate of ${row.amount} paise to user ${row.userId}, staff (${row.role}) when it was posted`,
    });
  }
  for (const row of await q.rebatesWithoutSource(db)) {
    violations.push({ rule: 'rebate_without_source', postingIds: [String(row.postingId)], detail: row.problem });
  }
  return violations;
}
