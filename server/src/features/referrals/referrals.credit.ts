import type { PlatformAccountKind, PostingRef } from '@kamai/contract';
import type { Tx } from '../../db/client';
import { post } from '../wallet';
import { findRebatePlan, type RebatePlan } from './referrals.queries';

/** Income that pays rebates to the earner's uplines, and the platform account it comes from. */
const SOURCE = {
  task_reward: 'platform_rewards',
  revenue: 'platform_revenue',
  linked_income: 'platform_revenue',
} as const satisfies Record<string, PlatformAccountKind>;
export type RebatedIncome = keyof typeof SOURCE;

export interface CreditInput {
  userId: number;
  /** Paise, > 0. */
  amount: bigint;
  type: RebatedIncome;
  idempotencyKey: string;
  ref?: PostingRef;
}

/**
 * Credits a user's wallet and, in the same transaction, pays the level-1 (inviter) and level-2
 * (inviter's inviter) rebates: floor(amount × bps / 10000) paise each from platform rewards, keyed
 * `<key>:rebate:<level>`. Rebates are plain postings and never pay rebates themselves. A replayed
 * key changes nothing and pays no rebate. `plan`: the user's rebate plan when the caller read it
 * already (with its own reads, in one statement: `rebatePlanOf`); otherwise it is read here.
 */
export async function creditWithRebates(tx: Tx, input: CreditInput, plan?: RebatePlan) {
  const credit = await post(tx, {
    type: input.type,
    idempotencyKey: input.idempotencyKey,
    ref: input.ref ?? {},
    entries: [
      { account: { kind: SOURCE[input.type] }, amount: -input.amount },
      { account: { userId: input.userId, kind: 'wallet' }, amount: input.amount },
    ],
  });
  if (!credit.created) return credit;
  const { level1, level2, level1Bps, level2Bps } = plan ?? (await findRebatePlan(tx, input.userId));
  const levels = [
    { level: 1, userId: level1, bps: level1Bps },
    { level: 2, userId: level2, bps: level2Bps },
  ];
  for (const { level, userId, bps } of levels) {
    if (userId === null) continue;
    const amount = (input.amount * BigInt(bps)) / 10_000n;
    if (amount <= 0n) continue;
    await post(tx, {
      type: 'rebate',
      idempotencyKey: `${input.idempotencyKey}:rebate:${level}`,
      ref: { inviteeId: input.userId, level },
      entries: [
        { account: { kind: 'platform_rewards' }, amount: -amount },
        { account: { userId, kind: 'wallet' }, amount },
      ],
    });
  }
  return credit;
}
