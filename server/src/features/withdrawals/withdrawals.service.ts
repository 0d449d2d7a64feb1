import { createHash } from 'node:crypto';
import { businessDayStart, formatRupees, type PageQuery, withdrawalLimitProblem } from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { claimIdempotencyKey, saveIdempotentResponse } from '../../platform/idempotency.queries';
import { assessWithdrawal } from '../fraud';
import { findDefaultAccount, findOwnAccount } from '../payout-accounts';
import { lockWallet, post, walletBalance } from '../wallet';
import * as q from './withdrawals.queries';
import { readLimits, showLimits } from './withdrawals.settings';
import { changeState, holdKey } from './withdrawals.state';
import { byWithdrawal, toItem } from './withdrawals.view';

const IDEMPOTENCY_SCOPE = 'withdraw/add';

/** The user's side of withdrawals: request, list, cancel, and the limits the form shows. */
export function createWithdrawalsService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * Requests a withdrawal (DESIGN.md §5) in one transaction: under the wallet's lock, checks the
   * account, the limits and the balance, creates it `pending` and moves the amount to the user's hold.
   * With an Idempotency-Key, a retry of the same body gets the first answer and a different body 409.
   */
  async function add(userId: number, input: { amount: bigint; accountId?: number | null }, idempotencyKey?: string) {
    const requestHash = createHash('sha256')
      .update(JSON.stringify({ amount: input.amount.toString(), accountId: input.accountId ?? null }))
      .digest('hex');
    const claim = idempotencyKey ? { userId, scope: IDEMPOTENCY_SCOPE, key: idempotencyKey, requestHash } : undefined;
    return db.transaction(async (tx) => {
      if (claim) {
        const earlier = await claimIdempotencyKey(tx, claim);
        if (earlier) {
          if (earlier.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
          return earlier.response as { id: number };
        }
      }
      if (await q.isFrozen(tx, userId)) throw new AppError('account_frozen');
      const balance = await lockWallet(tx, userId);
      const account = input.accountId
        ? await findOwnAccount(tx, userId, input.accountId, 'share')
        : await findDefaultAccount(tx, userId, 'share');
      if (!account) throw new AppError(input.accountId ? 'payout_account_not_found' : 'withdrawal_info_incomplete');
      const at = now();
      const settings = await readLimits(tx);
      const problem = withdrawalLimitProblem(
        input.amount,
        settings,
        await q.usageSince(tx, userId, businessDayStart(at)),
        formatRupees,
      );
      if (problem) throw new AppError(problem.key, problem.vars);
      if (input.amount <= settings.fee)
        throw new AppError('withdrawal_fee_too_high', { fee: formatRupees(settings.fee) });
      if (balance < input.amount) throw new AppError('insufficient_balance');

      const { risk, approvalsRequired } = await assessWithdrawal(tx, {
        userId,
        amount: input.amount,
        target: account,
        at,
      });
      const withdrawal = await q.insertWithdrawal(tx, {
        riskScore: risk.score,
        riskReasons: risk.reasons,
        approvalsRequired,
        userId,
        accountId: account.id,
        accountType: account.accountType,
        ifsc: account.ifsc,
        accountNo: account.accountNo,
        accountName: account.accountName,
        amount: input.amount,
        fee: settings.fee,
        state: 'pending',
        createdAt: at,
        updatedAt: at,
      });
      await q.insertHistory(tx, { withdrawalId: withdrawal.id, toState: 'pending', actorId: userId, createdAt: at });
      await post(tx, {
        type: 'withdrawal_hold',
        idempotencyKey: holdKey(withdrawal.id),
        ref: { withdrawalId: withdrawal.id },
        entries: [
          { account: { userId, kind: 'wallet' }, amount: -input.amount },
          { account: { userId, kind: 'hold' }, amount: input.amount },
        ],
      });
      const response = { id: withdrawal.id };
      if (claim) await saveIdempotentResponse(tx, claim, response);
      return response;
    });
  }

  /** The user's own withdrawals, newest first, with their history. */
  async function list(userId: number, { limit, cursor }: PageQuery) {
    const beforeId = decodeCursor(cursor, (v): v is number => Number.isSafeInteger(v));
    const rows = await q.listOwn(db, userId, limit + 1, beforeId);
    const page = keysetPage(rows, limit, (row) => row.id);
    const history = byWithdrawal(
      await q.historyOf(
        db,
        page.items.map((r) => r.id),
      ),
    );
    return {
      items: page.items.map((row) => toItem(row, history.get(row.id) ?? [])),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * Cancels the caller's own withdrawal while it is pending (issue 15): the hold returns to the wallet,
   * with history and notification, in one transaction on the locked row. A reviewer deciding at the same
   * moment waits for the lock and then finds it cancelled (409), or the other way round: exactly one wins.
   */
  async function cancel(userId: number, id: number) {
    const row = await db.transaction(async (tx) => {
      const current = await q.lockWithdrawal(tx, id);
      // Someone else's withdrawal is answered as if it did not exist.
      if (!current || current.userId !== userId) throw new AppError('withdrawal_not_found');
      return changeState(tx, current, { to: 'cancelled', at: now(), actorId: userId });
    });
    const history = byWithdrawal(await q.historyOf(db, [row.id]));
    return toItem(row, history.get(row.id) ?? []);
  }

  /** The limits, today's use of them (India's calendar day) and the balance, for the withdraw form. */
  async function limits(userId: number) {
    const current = await readLimits(db);
    const usage = await q.usageSince(db, userId, businessDayStart(now()));
    return {
      ...showLimits(current),
      todayCount: usage.count,
      todayTotal: formatRupees(usage.total),
      balance: formatRupees(await walletBalance(db, userId)),
      frozen: await q.isFrozen(db, userId),
    };
  }

  return { add, list, cancel, limits };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
