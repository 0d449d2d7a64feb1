import type { PostingRef } from '@kamai/contract';
import type { StatementPart } from '../../db/prepared';
import { AppError } from '../../platform/errors';
import { type RebatePlan, rewardCreditPart } from './referrals.queries';

export interface CreditInput {
  userId: number;
  /** Paise, > 0. */
  amount: bigint;
  idempotencyKey: string;
  ref?: PostingRef;
}

const DAY_MS = 86_400_000;

/**
 * The part of a statement that pays a task reward into the user's wallet and, in the same transaction,
 * records the rebates it owes (docs/decisions/rebate-hold.md): floor(amount × bps / 10000) paise to the
 * inviter (level 1) and the inviter's inviter (level 2), each posted from platform rewards into the
 * earner's `rebate_pending` account (keyed `<key>:rebate:<level>`) with a `rebates` row that the release
 * job moves to the wallet once its hold ends; all of it the database's `credit_with_rebates`, whose
 * postings go through `ledger_post` (`rewardCreditPart`: the CTE `name`, with `posting`, `created` and
 * `balance`). A deleted account is credited nothing (`account_deleted_final`), so its inviters are owed
 * nothing either. No rebate is owed by a duplicate identity, nor to a staff or deleted account
 * (`rebatePlanOf`). Only task rewards owe rebates: operator credits are compensation and linked income
 * is not a task reward, so both post with `post()` directly. A replayed key changes nothing and owes
 * nothing again (`created` false).
 */
export function creditWithRebates(name: string, input: CreditInput, now: Date, plan: RebatePlan): StatementPart {
  // A deleted account is the ledger's record only: no reward, and so no rebate to its inviters.
  if (plan.deleted) throw new AppError('account_deleted_final');
  const { level1, level2, level1Bps, level2Bps, holdDays, eligible } = plan;
  return rewardCreditPart(name, {
    userId: input.userId,
    amount: input.amount,
    idempotencyKey: input.idempotencyKey,
    ref: input.ref ?? {},
    level1: eligible ? level1 : null,
    level1Bps,
    level2: eligible ? level2 : null,
    level2Bps,
    availableAt: new Date(now.getTime() + holdDays * DAY_MS),
  });
}
