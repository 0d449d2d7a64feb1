import { formatRupees, type PageQuery, type UnclaimedMoneyItem } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import type { LedgerRule } from '../wallet';
import * as q from './unclaimed.queries';

type ListedRow = Awaited<ReturnType<typeof q.listUnclaimed>>[number];

function toItem({ item, username, withdrawal }: ListedRow): UnclaimedMoneyItem {
  return {
    id: item.id,
    userId: item.userId,
    username,
    withdrawalId: item.withdrawalId,
    accountNo: withdrawal.accountNo,
    gateway: withdrawal.gateway,
    payoutId: withdrawal.payoutId,
    reference: withdrawal.reference,
    kind: item.kind,
    amount: formatRupees(item.amount),
    reason: item.reason,
    postingId: item.postingId,
    createdAt: item.createdAt.toISOString(),
    handled: item.handledAt !== null,
    handledBy: item.handledBy,
    handledAt: item.handledAt?.toISOString() ?? null,
    note: item.note,
  };
}

/**
 * The operators' queue of money that came back for deleted accounts (docs/decisions/unclaimed-money.md):
 * the list with the number still open, and marking one handled with what was done. The money stays in
 * `platform_unclaimed`: no operator action puts it into a deleted account.
 */
export function createUnclaimedAdmin({ db, now }: { db: Db; now: () => Date }) {
  async function list(query: PageQuery & { handled?: boolean }) {
    const beforeId = decodeCursor(query.cursor, (v): v is number => Number.isSafeInteger(v));
    const [rows, open] = await Promise.all([
      q.listUnclaimed(db, { handled: query.handled }, query.limit + 1, beforeId),
      q.countOpenUnclaimed(db),
    ]);
    const page = keysetPage(rows, query.limit, (row) => row.item.id);
    return { items: page.items.map(toItem), nextCursor: page.nextCursor, open };
  }

  async function handle(actor: Actor, input: { id: number; note: string }) {
    await db.transaction(async (tx) => {
      const item = await q.lockUnclaimed(tx, input.id);
      if (!item) throw new AppError('unclaimed_not_found');
      if (item.handledAt) throw new AppError('unclaimed_handled_already');
      const at = now();
      await q.markHandled(tx, item.id, { handledBy: actor.id, handledAt: at, note: input.note });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'unclaimed.handle',
        target: `unclaimed:${item.id}`,
        before: { handled: false, withdrawalId: item.withdrawalId, amount: formatRupees(item.amount) },
        after: { handled: true, note: input.note },
        requestId: actor.requestId,
      });
    });
    const [row] = await q.listUnclaimed(db, { ids: [input.id] }, 1);
    if (!row) throw new Error(`unclaimed money ${input.id} vanished`);
    return toItem(row);
  }

  return { list, handle };
}

export type UnclaimedAdmin = ReturnType<typeof createUnclaimedAdmin>;

const RULE = 'unclaimed_for_deleted_account';

/**
 * Money in `platform_unclaimed` is only ever a deleted account's withdrawal coming back (a refund or a
 * reversal) with its operator task of the same amount (docs/decisions/ledger-rules.md).
 */
export const unclaimedRule: LedgerRule = {
  rule: RULE,
  async violations(db) {
    return (await q.unclaimedOffRule(db)).map((r) => {
      const why = [
        r.type === 'withdrawal_refund' || r.type === 'withdrawal_reversal' ? null : `is a ${r.type}`,
        r.withdrawalId === null ? 'names no withdrawal' : null,
        r.userId !== null && !r.deleted ? `user ${r.userId} is not deleted` : null,
        r.taskId === null ? 'has no operator task' : null,
        r.taskAmount !== null && r.taskAmount !== r.amount ? `task ${r.taskId} says ${r.taskAmount} paise` : null,
      ].filter(Boolean);
      return {
        rule: RULE,
        postingIds: [r.postingId],
        detail: `posting ${r.postingId} put ${r.amount} paise in platform_unclaimed for withdrawal ${r.withdrawalId ?? 'none'}: ${why.join('; ')}`,
      };
    });
  },
};
