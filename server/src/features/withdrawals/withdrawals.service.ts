import { createHash } from 'node:crypto';
import {
  businessDayStart,
  formatRupees,
  type Locale,
  type PageQuery,
  recipientNameProblem,
  SYSTEM_TASK_IDS,
} from '@kamai/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payoutAccounts } from '../../db/schema';
import { isRetryable, TX_MAX_ATTEMPTS } from '../../db/transaction';
import { decodeCursor, keysetPage } from '../../platform/cursor';
import { AppError, refusalOf } from '../../platform/errors';
import { SETTING_DEFAULTS } from '../../platform/settings.queries';
import { RISK_CATALOGUE } from '../fraud';
import { type AccountValidations, validationsByIds, verdictOf } from '../payout-accounts';
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
  validations?: Pick<AccountValidations, 'scoreNewWithdrawal'>;
}) {
  /**
   * Refuses a withdrawal to an account the bank refused or could not check (one still verifying waits
   * at dispatch), and to one saved before RazorpayX's name rules were checked whose name RazorpayX
   * would refuse: its owner edits the name first (docs/decisions/account-checks-by-operators.md).
   */
  async function refuseUnverified(userId: number, accountId: number | null) {
    const [account] = await db
      .select({ validationId: payoutAccounts.validationId, accountName: payoutAccounts.accountName })
      .from(payoutAccounts)
      .where(
        and(
          eq(payoutAccounts.userId, userId),
          accountId === null ? eq(payoutAccounts.isDefault, true) : eq(payoutAccounts.id, accountId),
        ),
      )
      .limit(1);
    if (account && recipientNameProblem(account.accountName)) {
      throw new AppError('payout_account_name_rebind', { fields: { accountName: 'payout_account_name_rebind' } });
    }
    if (!account?.validationId) return;
    const [check] = await validationsByIds(db, [account.validationId]).then((m) => [...m.values()]);
    if (verdictOf(check) === 'blocked') throw new AppError('payout_account_unverified');
  }

  /**
   * Requests a withdrawal (docs/design.md "Product rules") in one statement, its own transaction: the database's
   * `withdraw_request` (migration 0015) takes the idempotency key, refuses a frozen account, and under
   * the wallet's lock checks the account, the limits and the balance, scores the risk, creates the
   * withdrawal `pending` with its history and moves the amount to the user's hold (ledger_post). With an
   * Idempotency-Key, a retry of the same body gets the first answer and a different body 409.
   */
  async function add(userId: number, input: { amount: bigint; accountId?: number | null }, idempotencyKey?: string) {
    const requestHash = createHash('sha256')
      .update(JSON.stringify({ amount: input.amount.toString(), accountId: input.accountId ?? null }))
      .digest('hex');
    await refuseUnverified(userId, input.accountId ?? null);
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
    // The bank's name, if the number is verified already, against the names the user gave.
    await validations?.scoreNewWithdrawal(created.id);
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
