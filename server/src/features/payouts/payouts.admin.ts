import {
  formatRupees,
  type MismatchResolution,
  PAYOUT_MISMATCH_KINDS,
  type PageQuery,
  type PayoutMismatchItem,
  type PayoutMismatchKind,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import { staleRefusal } from '../../platform/stale';
import { lockWallet, post } from '../wallet';
import { lockWithdrawal } from '../withdrawals';
import * as q from './payouts.queries';
import { isRecoverable } from './payouts.service';

type ListedRow = Awaited<ReturnType<typeof q.listMismatches>>[number];

const recoveryKey = (withdrawalId: number) => `withdrawal:${withdrawalId}:recovery`;

function toItem(row: ListedRow): PayoutMismatchItem {
  const { mismatch, withdrawal } = row;
  const sameAmount =
    withdrawal !== null &&
    (mismatch.callbackAmount === null || mismatch.callbackAmount === withdrawal.amount - withdrawal.fee);
  return {
    id: mismatch.id,
    kind: (PAYOUT_MISMATCH_KINDS as readonly string[]).includes(mismatch.kind)
      ? (mismatch.kind as PayoutMismatchKind)
      : 'callback',
    withdrawalId: mismatch.withdrawalId,
    userId: withdrawal?.userId ?? null,
    username: row.username,
    gateway: mismatch.gateway,
    payoutId: mismatch.gatewayPayoutId,
    state: mismatch.state,
    currentState: withdrawal?.state ?? null,
    callbackStatus: mismatch.callbackStatus,
    amount: withdrawal ? formatRupees(withdrawal.amount) : '',
    callbackAmount: mismatch.callbackAmount === null ? null : formatRupees(mismatch.callbackAmount),
    reference: withdrawal?.reference ?? null,
    callbackReference: mismatch.callbackReference,
    settledBy: row.settled?.status
      ? { status: row.settled.status, receivedAt: row.settled.at.toISOString(), payload: row.settled.payload }
      : null,
    callback: row.callback?.status
      ? { status: row.callback.status, receivedAt: row.callback.at.toISOString(), payload: row.callback.payload }
      : null,
    details: mismatch.details ?? null,
    recoverable: mismatch.resolvedAt === null && withdrawal !== null && isRecoverable(mismatch, withdrawal, sameAmount),
    createdAt: mismatch.createdAt.toISOString(),
    resolved: mismatch.resolvedAt !== null,
    resolution: mismatch.resolution,
    resolutionReason: mismatch.resolutionReason,
    resolvedBy: mismatch.resolvedBy,
    resolvedAt: mismatch.resolvedAt?.toISOString() ?? null,
  };
}

/** The operators' side of payout mismatches: the list and the resolve action (hardening issue, defect 4). */
export function createPayoutsAdmin({ db, now }: { db: Db; now: () => Date }) {
  async function list(query: PageQuery & { resolved?: boolean }, from: Executor = db) {
    const beforeId = decodeCursor(query.cursor, (v): v is number => Number.isSafeInteger(v));
    const rows = await q.listMismatches(from, { resolved: query.resolved }, query.limit + 1, beforeId);
    const page = keysetPage(rows, query.limit, (row) => row.mismatch.id);
    return { items: page.items.map(toItem), nextCursor: page.nextCursor };
  }

  /**
   * Resolves one mismatch in one transaction, audited. `recover`: the gateway says it paid a withdrawal
   * whose amount went back to the wallet, so the amount is taken back from the wallet to platform
   * payouts (one posting per withdrawal, whatever the number of mismatches); a wallet holding less is
   * refused whole (409, nothing taken): the operator may freeze the account and try again, or dismiss
   * with the reason (docs/decisions/payout-mismatches.md). `dismiss`: closes it with the operator's reason, money unmoved.
   */
  async function resolve(actor: Actor, input: { id: number; action: MismatchResolution; reason: string }) {
    await db.transaction(async (tx) => {
      const mismatch = await q.lockMismatch(tx, input.id);
      if (!mismatch) throw new AppError('payout_mismatch_not_found');
      if (mismatch.resolvedAt) {
        throw await staleRefusal(tx, 'payout_mismatch_resolved_already', {
          state: mismatch.resolution ?? 'dismiss',
          byId: mismatch.resolvedBy,
          at: mismatch.resolvedAt,
        });
      }
      // A payout no withdrawal has: only dismissed (with what the operator found), never recovered.
      const withdrawal = mismatch.withdrawalId === null ? undefined : await lockWithdrawal(tx, mismatch.withdrawalId);
      if (mismatch.withdrawalId !== null && !withdrawal) throw new Error(`mismatch ${mismatch.id} lost its withdrawal`);
      // Separation of duties, as in review: no operator settles a mismatch of his own withdrawal.
      if (withdrawal?.userId === actor.id) throw new AppError('cannot_resolve_own_mismatch');
      let recovered: { postingId: number } | undefined;
      if (input.action === 'recover') {
        if (!withdrawal) throw new AppError('payout_mismatch_not_recoverable');
        const sameAmount =
          mismatch.callbackAmount === null || mismatch.callbackAmount === withdrawal.amount - withdrawal.fee;
        if (!isRecoverable(mismatch, withdrawal, sameAmount)) {
          throw new AppError('payout_mismatch_not_recoverable');
        }
        const balance = await lockWallet(tx, withdrawal.userId);
        if (balance < withdrawal.amount) {
          throw new AppError('payout_mismatch_recovery_short', {
            balance: formatRupees(balance),
            amount: formatRupees(withdrawal.amount),
          });
        }
        const posted = await post(tx, {
          type: 'payout_recovery',
          idempotencyKey: recoveryKey(withdrawal.id),
          ref: { withdrawalId: withdrawal.id },
          entries: [
            // As if paid: the gateway paid amount − fee, the fee is the platform's revenue.
            { account: { userId: withdrawal.userId, kind: 'wallet' }, amount: -withdrawal.amount },
            { account: { kind: 'platform_payouts' }, amount: withdrawal.amount - withdrawal.fee },
            ...(withdrawal.fee > 0n
              ? [{ account: { kind: 'platform_revenue' as const }, amount: withdrawal.fee }]
              : []),
          ],
        });
        // Another mismatch of the same withdrawal was recovered already: never twice.
        if (!posted.created) throw new AppError('payout_mismatch_not_recoverable');
        recovered = { postingId: posted.postingId };
      }
      const at = now();
      await q.resolveMismatch(tx, mismatch.id, {
        resolution: input.action,
        resolutionReason: input.reason,
        resolvedBy: actor.id,
        resolvedAt: at,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: `payout_mismatch.${input.action}`,
        target: `payout_mismatch:${mismatch.id}`,
        before: {
          resolved: false,
          kind: mismatch.kind,
          withdrawalId: withdrawal?.id ?? null,
          state: withdrawal?.state ?? null,
          payoutId: mismatch.gatewayPayoutId,
        },
        after: {
          resolved: true,
          resolution: input.action,
          reason: input.reason,
          ...(recovered && withdrawal
            ? { amount: formatRupees(withdrawal.amount), postingId: recovered.postingId }
            : {}),
        },
        requestId: actor.requestId,
      });
    });
    const [row] = await q.listMismatches(db, { ids: [input.id] }, 1);
    if (!row) throw new Error(`mismatch ${input.id} vanished`);
    return toItem(row);
  }

  return { list, resolve };
}

export type PayoutsAdmin = ReturnType<typeof createPayoutsAdmin>;
