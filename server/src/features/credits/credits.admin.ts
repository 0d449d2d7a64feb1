import {
  type CreditRequestItem,
  type CreditRequestState,
  type CreditTextPreset,
  encodeCreditText,
  formatRupees,
  type PageQuery,
  type PostingType,
} from '@kamai/contract';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { needsSecondApprover, refuseSameApprover } from '../../platform/four-eyes';
import type { Actor } from '../../platform/routes';
import { readRiskSettings } from '../fraud';
import { lockUserShared } from '../users';
import { post, walletBalance } from '../wallet';
import * as q from './credits.queries';

function toCreditItem(row: {
  request: q.CreditRequestRow;
  username: string;
  requestedByName: string;
}): CreditRequestItem {
  const r = row.request;
  return {
    id: r.id,
    userId: r.userId,
    username: row.username,
    amount: formatRupees(r.amount),
    remark: r.remark,
    userText: r.userText,
    state: r.state,
    requestedBy: r.requestedBy,
    requestedByName: row.requestedByName,
    requestedAt: r.createdAt.toISOString(),
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    reason: r.reason,
    postingId: r.postingId,
  };
}

/**
 * `remark`: the internal note; `userPreset` and `userText`: what the user's income record shows, a text
 * in the user's language and the operator's words (none: a generic label). Stored encoded in one text
 * (`encodeCreditText`), which a credit request keeps until it is approved.
 */
interface CreditInput {
  userId: number;
  amount: bigint;
  remark: string;
  userText?: string | null;
  userPreset?: CreditTextPreset;
}

export function createCreditsAdmin({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  /**
   * The internal note stays on the posting as `ref.note` (staff only: the user's wallet list drops it);
   * only the user-facing text, when given, is `ref.remark`, which the user's income record shows. A
   * credit is compensation, not earnings: it pays no rebate to anyone (docs/decisions/rebate-hold.md).
   */
  function credit(tx: Tx, input: CreditInput, idempotencyKey: string) {
    const userText = input.userText || undefined;
    return post(tx, {
      type: 'manual_credit',
      idempotencyKey,
      ref: { note: input.remark, ...(userText ? { remark: userText } : {}) },
      entries: [
        { account: { kind: 'platform_revenue' }, amount: -input.amount },
        { account: { userId: input.userId, kind: 'wallet' }, amount: input.amount },
      ],
    });
  }

  /**
   * Credits a user with a remark (compensation: no rebate to anyone). Never one's own wallet. Above the
   * `risk` settings' credit threshold the credit waits for a second admin (four-eyes). Each call is a
   * deliberate new credit: its idempotency key is the audit row's id, written first in the same
   * transaction.
   */
  async function add(actor: Actor, { userPreset, ...rest }: CreditInput) {
    const input = { ...rest, userText: encodeCreditText(userPreset, rest.userText || undefined) ?? null };
    if (input.userId === actor.id) throw new AppError('cannot_credit_self');
    return db.transaction(async (tx) => {
      const target = await lockUserShared(tx, input.userId);
      if (!target) throw new AppError('user_not_found');
      if (target.deletedAt) throw new AppError('account_deleted_final');
      const settings = await readRiskSettings(tx);
      if (needsSecondApprover(input.amount, settings.creditApprovalAbovePaise)) {
        const request = await q.insertCreditRequest(tx, {
          userId: input.userId,
          amount: input.amount,
          remark: input.remark,
          userText: input.userText || null,
          requestedBy: actor.id,
          createdAt: now(),
        });
        await writeAudit(tx, {
          actorId: actor.id,
          action: 'revenue.request',
          target: `user:${input.userId}`,
          after: {
            creditRequestId: request.id,
            amount: formatRupees(input.amount),
            remark: input.remark,
            userText: input.userText || null,
          },
          requestId: actor.requestId,
        });
        return {
          postingId: null,
          balance: formatRupees(await walletBalance(tx, input.userId)),
          creditRequest: { id: request.id, state: request.state },
        };
      }
      const auditId = await writeAudit(tx, {
        actorId: actor.id,
        action: 'revenue.add',
        target: `user:${input.userId}`,
        after: { amount: formatRupees(input.amount), remark: input.remark, userText: input.userText || null },
        requestId: actor.requestId,
      });
      const posted = await credit(tx, input, `revenue:audit:${auditId}`);
      return {
        postingId: posted.postingId,
        balance: formatRupees(await walletBalance(tx, input.userId)),
        creditRequest: null,
      };
    });
  }

  /** A second admin's decision on a waiting credit: approve posts it (once), reject closes it; audited. */
  async function review(actor: Actor, input: { id: number; action: 'approve' | 'reject'; reason: string }) {
    await db.transaction(async (tx) => {
      const request = await q.lockCreditRequest(tx, input.id);
      if (!request) throw new AppError('credit_request_not_found');
      if (request.state !== 'pending') throw new AppError('credit_request_decided');
      refuseSameApprover(request.requestedBy, actor.id);
      if (request.userId === actor.id) throw new AppError('cannot_credit_self');
      // Requested before the account was deleted: its wallet is the ledger's record now, never credited.
      if (input.action === 'approve' && (await lockUserShared(tx, request.userId))?.deletedAt) {
        throw new AppError('account_deleted_final');
      }
      const decided = { decidedBy: actor.id, decidedAt: now() };
      if (input.action === 'approve') {
        const posted = await credit(tx, request, `revenue:request:${request.id}`);
        await q.updateCreditRequest(tx, request.id, { ...decided, state: 'approved', postingId: posted.postingId });
      } else {
        await q.updateCreditRequest(tx, request.id, { ...decided, state: 'rejected', reason: input.reason });
      }
      await writeAudit(tx, {
        actorId: actor.id,
        action: `revenue.${input.action}`,
        target: `user:${request.userId}`,
        before: { creditRequestId: request.id, state: request.state, requestedBy: request.requestedBy },
        after: {
          creditRequestId: request.id,
          state: input.action === 'approve' ? 'approved' : 'rejected',
          amount: formatRupees(request.amount),
          reason: input.reason || null,
        },
        requestId: actor.requestId,
      });
    });
    const [row] = await q.listCreditRequests(db, { id: input.id, limit: 1 });
    if (!row) throw new Error('a decided credit request vanished');
    return toCreditItem(row);
  }

  async function requestList(query: PageQuery & { state?: CreditRequestState }) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listCreditRequests(db, { state: query.state, beforeId, limit: query.limit + 1 });
    const page = keysetPage(rows, query.limit, (row) => row.request.id);
    return { items: page.items.map(toCreditItem), nextCursor: page.nextCursor };
  }

  async function balanceList(query: PageQuery & { userId?: number; type?: PostingType }) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listWalletEntries(db, {
      userId: query.userId,
      type: query.type,
      beforeId,
      limit: query.limit + 1,
    });
    const page = keysetPage(rows, query.limit, (row) => row.id);
    const items = page.items.map((row) => ({
      id: row.id,
      userId: row.userId,
      username: row.username,
      type: row.type,
      amount: formatRupees(row.amount),
      balanceAfter: formatRupees(row.balanceAfter ?? 0n),
      createdAt: row.createdAt.toISOString(),
      ref: row.ref,
    }));
    return { items, nextCursor: page.nextCursor };
  }

  return { add, review, requestList, balanceList };
}

export type CreditsAdmin = ReturnType<typeof createCreditsAdmin>;
