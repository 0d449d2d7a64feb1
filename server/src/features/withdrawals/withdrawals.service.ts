import { createHash } from 'node:crypto';
import {
  businessDayStart,
  formatRupees,
  type Locale,
  type PageQuery,
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
  recipientNameProblem,
  SYSTEM_TASK_IDS,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { isRetryable, TX_MAX_ATTEMPTS } from '../../db/transaction';
import { decodeCursor, keysetPage } from '../../platform/cursor';
import { AppError, refusalOf } from '../../platform/errors';
import { SETTING_DEFAULTS } from '../../platform/settings.queries';
import { RISK_CATALOGUE } from '../fraud';
import { type AccountValidations, verdictOf, withdrawalAccountOf } from '../payout-accounts';
import { walletBalance } from '../wallet';
import * as q from './withdrawals.queries';
import { readLimits, showLimits } from './withdrawals.settings';
import { changeState, holdKey } from './withdrawals.state';
import { byWithdrawal, toItem } from './withdrawals.view';

const IDEMPOTENCY_SCOPE = 'withdraw/add';

/**
 * What `withdraw_request` takes from the application, so that none of it is copied into SQL: the
 * settings' defaults (a stored value is merged over them, as getSetting does), the risk catalogue,
 * the registration task's id and the hold posting's key with %s for the withdrawal's id.
 */
const WITHDRAW_REQUEST_CONSTANTS = JSON.stringify({
  withdrawal: SETTING_DEFAULTS.withdrawal,
  risk: SETTING_DEFAULTS.risk,
  ...RISK_CATALOGUE,
  registerTaskId: SYSTEM_TASK_IDS.register,
  holdKey: holdKey('%s' as unknown as number),
});

/**
 * Runs a statement that is a whole transaction on its own: again, like `db.transaction`, when PostgreSQL
 * aborted it as a serialization failure or a deadlock victim (everything it did was rolled back);
 * a refusal it raised becomes the AppError it names.
 */
async function runStatement<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) throw refusal;
      if (attempt >= TX_MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
    }
  }
}

/** The user's side of withdrawals: request, list, cancel, and the limits the form shows. */
export function createWithdrawalsService({
  db,
  now,
  validations,
}: {
  db: Db;
  now: () => Date;
  /** Payout account checks: a refused number takes no withdrawal; a verified one's names are scored. */
  validations?: Pick<AccountValidations, 'scoreNewWithdrawal' | 'newWithdrawalSignals'>;
}) {
  /**
   * Refuses a withdrawal to an account the bank refused or could not check (one still verifying waits
   * at dispatch), and to one saved before RazorpayX's name rules were checked whose name RazorpayX
   * would refuse: its owner edits the name first (docs/decisions/account-checks-by-operators.md).
   * Answers the account with the bank-name signals its verified number sets off, which the new
   * withdrawal carries.
   */
  async function refuseUnverified(userId: number, accountId: number | null) {
    const account = await withdrawalAccountOf(db, userId, accountId);
    if (!account) return undefined;
    if (recipientNameProblem(account.accountName)) {
      throw new AppError('payout_account_name_rebind', { fields: { accountName: 'payout_account_name_rebind' } });
    }
    if (account.check && verdictOf(account.check) === 'blocked') throw new AppError('payout_account_unverified');
    const signals = (await validations?.newWithdrawalSignals(userId, account, account.check)) ?? [];
    return { account, signals };
  }

  /**
   * Requests a withdrawal (docs/design.md "Product rules") in one statement, its own transaction: the database's
   * `withdraw_request` (a database function) takes the idempotency key, refuses a frozen account, and under
   * the wallet's lock checks the account, the limits and the balance, scores the risk, creates the
   * withdrawal `pending` with its history and moves the amount to the user's hold (ledger_post). With an
   * Idempotency-Key, a retry of the same body gets the first answer and a different body 409. The
   * bank's name, when the number is verified, is judged before (`refuseUnverified`); one statement
   * after adds its signals to the new row (benchmark 3: at most 5 round trips with the session; scoring
   * in a transaction of its own after the request made it 13).
   */
  async function add(userId: number, input: { amount: bigint; accountId?: number | null }, idempotencyKey?: string) {
    const requestHash = createHash('sha256')
      .update(JSON.stringify({ amount: input.amount.toString(), accountId: input.accountId ?? null }))
      .digest('hex');
    const paying = await refuseUnverified(userId, input.accountId ?? null);
    const at = now();
    const created = await runStatement(() =>
      q.requestWithdrawal(db, {
        userId,
        amount: input.amount.toString(),
        accountId: input.accountId ?? null,
        at: at.toISOString(),
        dayStart: businessDayStart(at).toISOString(),
        scope: IDEMPOTENCY_SCOPE,
        key: idempotencyKey ?? null,
        hash: requestHash,
        constants: WITHDRAW_REQUEST_CONSTANTS,
      }),
    );
    if (paying && validations) {
      // One statement adds the signals and answers whether the row pays the account they were judged
      // on; one that does not (its account edited or switched in between) is scored on its own copy.
      const added = Object.fromEntries(paying.signals.map(({ signal, weight }) => [RISK_REASON_KEYS[signal], weight]));
      const order = RISK_SIGNALS.map((s) => RISK_REASON_KEYS[s]);
      const same = await runStatement(() =>
        q.addRiskReasons(db, created.id, paying.account, added, order, RISK_SCORE_MAX),
      );
      if (!same) await validations.scoreNewWithdrawal(created.id);
    }
    return created;
  }

  /** The user's own withdrawals, newest first, with their history. */
  async function list(userId: number, { limit, cursor }: PageQuery, locale?: Locale) {
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
      items: page.items.map((row) => toItem(row, history.get(row.id) ?? [], locale)),
      nextCursor: page.nextCursor,
    };
  }

  /**
   * Cancels the caller's own withdrawal while it is pending (docs/decisions/withdrawals.md): the hold returns to the
   * wallet,
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

  /**
   * The limits, today's use of them (India's calendar day), what they refuse for the rest of the day and
   * the balance, for the withdraw form. The database counts and decides (`limitsToday`), as it does for
   * the request itself.
   */
  async function limits(userId: number) {
    const current = await readLimits(db);
    const today = await q.limitsToday(db, userId, businessDayStart(now()), current);
    return {
      ...showLimits(current),
      todayCount: today.count,
      todayTotal: formatRupees(today.total),
      balance: formatRupees(await walletBalance(db, userId)),
      frozen: await q.isFrozen(db, userId),
      todayCancelled: today.cancelled,
      requestsLeft: today.requestsLeft,
      refusals: today.refusals,
    };
  }

  return { add, list, cancel, limits };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
