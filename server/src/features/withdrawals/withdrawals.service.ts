import { createHash } from 'node:crypto';
import {
  businessDayStart,
  endOfBusinessDay,
  formatRupees,
  type PageQuery,
  type RiskSettingsChange,
  startOfBusinessDay,
  type WithdrawalLimits,
  type WithdrawalLimitsPaise,
  type WithdrawalState,
  withdrawalLimitProblem,
} from '@kamai/contract';
import type { Db, Executor, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { claimIdempotencyKey, saveIdempotentResponse } from '../../platform/idempotency.queries';
import { getSetting, putSetting } from '../../platform/settings.queries';
import { assessWithdrawal, changeRiskSettings, readRiskSettings, showRiskSettings } from '../fraud';
import { findDefaultAccount, findOwnAccount } from '../payout-accounts';
import { lockWallet, post, walletBalance } from '../wallet';
import * as q from './withdrawals.queries';
import { changeState, holdKey } from './withdrawals.state';
import { byWithdrawal, toAdminItem, toItem } from './withdrawals.view';

/** What approval hands the payout to (the payouts feature): a job in the same transaction, then a nudge. */
export interface PayoutDispatcher {
  enqueueDispatch(tx: Tx, withdrawalId: number): Promise<void>;
  wake(): void;
}

interface Actor {
  id: number;
  requestId: string;
}

export interface AdminListQuery extends PageQuery {
  state?: WithdrawalState;
  userId?: number;
  from?: string;
  to?: string;
  minRisk?: number;
  reason?: string;
  sort?: 'queue' | 'risk';
}

/**
 * `x`: one filtered list; `p` then `r`: pending oldest first, then the rest newest first; `k`: by
 * risk score, highest first (`score` of the last item). `id` null: from the start.
 */
type AdminCursor = { s: 'x' | 'p' | 'r' | 'k'; id: number | null; score?: number };
const isAdminCursor = (v: unknown): v is AdminCursor =>
  typeof v === 'object' &&
  v !== null &&
  ['x', 'p', 'r', 'k'].includes((v as AdminCursor).s) &&
  ((v as AdminCursor).id === null || Number.isSafeInteger((v as AdminCursor).id)) &&
  ((v as AdminCursor).s !== 'k' || Number.isSafeInteger((v as AdminCursor).score));

/** The limits, with the fee taken from each paid withdrawal and the payout time the dialog promises. */
type WithdrawalSettings = WithdrawalLimitsPaise & { fee: bigint; payoutHours: number };

async function readLimits(db: Executor): Promise<WithdrawalSettings> {
  const stored = await getSetting(db, 'withdrawal');
  return {
    min: BigInt(stored.minPaise),
    max: BigInt(stored.maxPaise),
    dailyCount: stored.dailyCount,
    dailyTotal: BigInt(stored.dailyTotalPaise),
    fee: BigInt(stored.feePaise),
    payoutHours: stored.payoutHours,
  };
}

function showLimits(limits: WithdrawalSettings): WithdrawalLimits {
  return {
    min: formatRupees(limits.min),
    max: formatRupees(limits.max),
    dailyCount: limits.dailyCount,
    dailyTotal: formatRupees(limits.dailyTotal),
    fee: formatRupees(limits.fee),
    payoutHours: limits.payoutHours,
  };
}

const IDEMPOTENCY_SCOPE = 'withdraw/add';

export function createWithdrawalsService({ db, now, payouts }: { db: Db; now: () => Date; payouts: PayoutDispatcher }) {
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
    const page = rows.slice(0, limit);
    const history = byWithdrawal(
      await q.historyOf(
        db,
        page.map((r) => r.id),
      ),
    );
    const last = page.at(-1);
    return {
      items: page.map((row) => toItem(row, history.get(row.id) ?? [])),
      nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null,
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

  async function withUsernamesAndHistory(rows: { withdrawal: q.WithdrawalRow; username: string }[]) {
    const history = byWithdrawal(
      await q.historyOf(
        db,
        rows.map((r) => r.withdrawal.id),
      ),
    );
    return rows.map((r) => toAdminItem(r.withdrawal, r.username, history.get(r.withdrawal.id) ?? []));
  }

  /** Filtered by state, user and India calendar days; unfiltered: pending oldest first, then the rest newest first. */
  async function adminList(query: AdminListQuery) {
    const cursor = decodeCursor(query.cursor, isAdminCursor);
    const filter = {
      userId: query.userId,
      from: query.from ? startOfBusinessDay(query.from) : undefined,
      to: query.to ? endOfBusinessDay(query.to) : undefined,
      minRisk: query.minRisk,
      reason: query.reason,
    };
    const limit = query.limit;
    if (query.sort === 'risk') {
      const after = cursor?.s === 'k' && cursor.id !== null ? { score: cursor.score ?? 0, id: cursor.id } : undefined;
      const rows = await q.listForAdminByRisk(db, { ...filter, state: query.state }, limit + 1, after);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: await withUsernamesAndHistory(page),
        nextCursor:
          rows.length > limit && last
            ? encodeCursor({ s: 'k', id: last.withdrawal.id, score: last.withdrawal.riskScore })
            : null,
      };
    }
    if (query.state) {
      const order = query.state === 'pending' ? 'asc' : 'desc';
      const rows = await q.listForAdmin(
        db,
        { ...filter, state: query.state },
        order,
        limit + 1,
        cursor?.id ?? undefined,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: await withUsernamesAndHistory(page),
        nextCursor: rows.length > limit && last ? encodeCursor({ s: 'x', id: last.withdrawal.id }) : null,
      };
    }
    const page: Awaited<ReturnType<typeof q.listForAdmin>> = [];
    let next: AdminCursor | null = null;
    let afterId = cursor?.id ?? undefined;
    if ((cursor?.s ?? 'p') === 'p') {
      const rows = await q.listForAdmin(db, { ...filter, state: 'pending' }, 'asc', limit + 1, afterId);
      page.push(...rows.slice(0, limit));
      const last = page.at(-1);
      if (rows.length > limit && last) next = { s: 'p', id: last.withdrawal.id };
      afterId = undefined;
    }
    if (!next) {
      const room = limit - page.length;
      const rows = await q.listForAdmin(db, { ...filter, notPending: true }, 'desc', room + 1, afterId);
      page.push(...rows.slice(0, room));
      // With no room left on this page, the next one starts the rest from its beginning (id null).
      if (rows.length > room) next = { s: 'r', id: rows[room - 1]?.withdrawal.id ?? null };
    }
    return { items: await withUsernamesAndHistory(page), nextCursor: next ? encodeCursor(next) : null };
  }

  /** Approves (and queues the payout) or rejects (hold returned) a pending withdrawal; audited. */
  async function review(actor: Actor, input: { id: number; action: 'approve' | 'reject'; reason: string }) {
    const to = input.action === 'approve' ? 'approved' : 'rejected';
    const outcome = await db.transaction(async (tx) => {
      const current = await q.lockWithdrawal(tx, input.id);
      if (!current) throw new AppError('withdrawal_not_found');
      if (current.userId === actor.id) throw new AppError('cannot_review_own_withdrawal');
      if (to === 'approved' && current.approvalsRequired > 1) {
        if (current.state !== 'pending') throw new AppError('withdrawal_state_conflict');
        if (current.firstApproverId === actor.id) throw new AppError('second_approver_required');
        if (current.firstApproverId === null) {
          // Four-eyes: the first approval is recorded; only a different reviewer's dispatches.
          const recorded = await q.updateWithdrawal(tx, current.id, {
            firstApproverId: actor.id,
            firstApprovedAt: now(),
          });
          await writeAudit(tx, {
            actorId: actor.id,
            action: 'withdrawal.approve_first',
            target: `withdrawal:${current.id}`,
            before: { state: current.state, approvals: 0 },
            after: { state: current.state, approvals: 1, reason: input.reason || null },
            requestId: actor.requestId,
          });
          return { row: recorded, dispatched: false };
        }
      }
      const changed = await changeState(tx, current, {
        to,
        at: now(),
        reason: input.reason || null,
        actorId: actor.id,
      });
      if (to === 'approved') await payouts.enqueueDispatch(tx, changed.id);
      await writeAudit(tx, {
        actorId: actor.id,
        action: `withdrawal.${input.action}`,
        target: `withdrawal:${changed.id}`,
        before: {
          state: current.state,
          ...(current.firstApproverId ? { firstApproverId: current.firstApproverId } : {}),
        },
        after: { state: changed.state, reason: input.reason || null },
        requestId: actor.requestId,
      });
      return { row: changed, dispatched: to === 'approved' };
    });
    if (outcome.dispatched) payouts.wake();
    const row = outcome.row;
    const [item] = await withUsernamesAndHistory([{ withdrawal: row, username: await q.usernameOf(db, row.userId) }]);
    if (!item) throw new Error('a reviewed withdrawal lost its view');
    return item;
  }

  async function settingsGet() {
    return { withdrawal: showLimits(await readLimits(db)), risk: showRiskSettings(await readRiskSettings(db)) };
  }

  /** Changes the withdrawal limits (fields left out stay); the minimum may not pass the maximum or the daily total. */
  async function settingsSet(
    actor: Actor,
    input: {
      withdrawal: {
        min?: bigint;
        max?: bigint;
        dailyCount?: number;
        dailyTotal?: bigint;
        fee?: bigint;
        payoutHours?: number;
      };
      risk: RiskSettingsChange;
    },
  ) {
    return db.transaction(async (tx) => {
      const riskBefore = await readRiskSettings(tx, { forUpdate: true });
      const riskAfter = await changeRiskSettings(tx, riskBefore, input.risk);
      if (JSON.stringify(riskAfter) !== JSON.stringify(riskBefore)) {
        await writeAudit(tx, {
          actorId: actor.id,
          action: 'settings.set',
          target: 'setting:risk',
          before: showRiskSettings(riskBefore),
          after: showRiskSettings(riskAfter),
          requestId: actor.requestId,
        });
      }
      await getSetting(tx, 'withdrawal', { forUpdate: true });
      const before = await readLimits(tx);
      const change = input.withdrawal;
      const after: WithdrawalSettings = {
        min: change.min ?? before.min,
        max: change.max ?? before.max,
        dailyCount: change.dailyCount ?? before.dailyCount,
        dailyTotal: change.dailyTotal ?? before.dailyTotal,
        fee: change.fee ?? before.fee,
        payoutHours: change.payoutHours ?? before.payoutHours,
      };
      if (after.min > after.max || after.min > after.dailyTotal) throw new AppError('withdrawal_limits_invalid');
      // A fee that would swallow the smallest withdrawal leaves nothing to pay out.
      if (after.fee >= after.min) {
        throw new AppError('withdrawal_fee_too_high', {
          fee: formatRupees(after.fee),
          fields: { fee: 'withdrawal_fee_too_high' },
        });
      }
      await putSetting(tx, 'withdrawal', {
        minPaise: Number(after.min),
        maxPaise: Number(after.max),
        dailyCount: after.dailyCount,
        dailyTotalPaise: Number(after.dailyTotal),
        feePaise: Number(after.fee),
        payoutHours: after.payoutHours,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'settings.set',
        target: 'setting:withdrawal',
        before: showLimits(before),
        after: showLimits(after),
        requestId: actor.requestId,
      });
      return { withdrawal: showLimits(after), risk: showRiskSettings(riskAfter) };
    });
  }

  return { add, list, cancel, limits, adminList, review, settingsGet, settingsSet };
}

export type WithdrawalsService = ReturnType<typeof createWithdrawalsService>;
