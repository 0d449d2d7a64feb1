import type { PostingRef } from '@kamai/contract';
import type { Tx } from '../../db/client';
import { AppError } from '../../platform/errors';
import { post } from '../wallet';
import { findRebatePlan, insertRebate, type RebatePlan } from './referrals.queries';

export interface CreditInput {
  userId: number;
  /** Paise, > 0. */
  amount: bigint;
  idempotencyKey: string;
  ref?: PostingRef;
}

const DAY_MS = 86_400_000;

/**
 * Pays a task reward into the user's wallet and, in the same transaction, records the rebates it owes
 * (docs/decisions/rebate-hold.md): floor(amount × bps / 10000) paise to the inviter (level 1) and the
 * inviter's inviter (level 2), each posted from platform rewards into the earner's `rebate_pending`
 * account (keyed `<key>:rebate:<level>`) with a `rebates` row that the release job moves to the wallet
 * once its hold ends. A deleted account is credited nothing (`account_deleted_final`), so its inviters
 * are owed nothing either. No rebate is owed by a duplicate identity, nor to a staff or deleted account
 * (`rebatePlanOf`). Only task rewards owe rebates: operator credits are compensation and linked
 * income is not a task reward, so both post with `post()` directly. A replayed key changes nothing and
 * owes nothing again. `plan`: the user's rebate plan when the caller read it already.
 */
export async function creditWithRebates(tx: Tx, input: CreditInput, now: Date, known?: RebatePlan) {
  const plan = known ?? (await findRebatePlan(tx, input.userId));
  // A deleted account is the ledger's record only: no reward, and so no rebate to its inviters.
  if (plan.deleted) throw new AppError('account_deleted_final');
  const credit = await post(tx, {
    type: 'task_reward',
    idempotencyKey: input.idempotencyKey,
    ref: input.ref ?? {},
    entries: [
      { account: { kind: 'platform_rewards' }, amount: -input.amount },
      { account: { userId: input.userId, kind: 'wallet' }, amount: input.amount },
    ],
  });
  if (!credit.created) return credit;
  const { level1, level2, level1Bps, level2Bps, holdDays, eligible } = plan;
  if (!eligible) return credit;
  const availableAt = new Date(now.getTime() + holdDays * DAY_MS);
  const levels = [
    { level: 1, earnerId: level1, bps: level1Bps },
    { level: 2, earnerId: level2, bps: level2Bps },
  ];
  for (const { level, earnerId, bps } of levels) {
    if (earnerId === null) continue;
    const amount = (input.amount * BigInt(bps)) / 10_000n;
    if (amount <= 0n) continue;
    const accrual = await post(tx, {
      type: 'rebate',
      idempotencyKey: `${input.idempotencyKey}:rebate:${level}`,
      ref: { inviteeId: input.userId, level, sourcePostingId: credit.postingId },
      entries: [
        { account: { kind: 'platform_rewards' }, amount: -amount },
        { account: { userId: earnerId, kind: 'rebate_pending' }, amount },
      ],
    });
    if (!accrual.created) continue;
    await insertRebate(tx, {
      sourcePostingId: credit.postingId,
      inviteeId: input.userId,
      earnerId,
      level,
      bps,
      amount,
      availableAt,
      accrualPostingId: accrual.postingId,
    });
  }
  return credit;
}
