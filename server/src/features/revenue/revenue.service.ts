import { formatRupees, type PageQuery, type PostingType } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { creditWithRebates } from '../referrals';
import { findUserById } from '../users';
import { walletBalance } from '../wallet';
import * as q from './revenue.queries';

export function createRevenueService({ db }: { db: Db }) {
  /**
   * Credits a user with a remark, paying rebates to the uplines. Each call is a deliberate new credit:
   * its idempotency key is the audit row's id, written first in the same transaction.
   */
  async function add(
    actor: { id: number; requestId: string },
    input: { userId: number; amount: bigint; remark: string },
  ) {
    return db.transaction(async (tx) => {
      if (!(await findUserById(tx, input.userId))) throw new AppError('user_not_found');
      const auditId = await writeAudit(tx, {
        actorId: actor.id,
        action: 'revenue.add',
        target: `user:${input.userId}`,
        after: { amount: formatRupees(input.amount), remark: input.remark },
        requestId: actor.requestId,
      });
      const credit = await creditWithRebates(tx, {
        userId: input.userId,
        amount: input.amount,
        type: 'revenue',
        idempotencyKey: `revenue:audit:${auditId}`,
        ref: { remark: input.remark },
      });
      return { postingId: credit.postingId, balance: formatRupees(await walletBalance(tx, input.userId)) };
    });
  }

  async function balanceList(query: PageQuery & { userId?: number; type?: PostingType }) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listWalletEntries(db, {
      userId: query.userId,
      type: query.type,
      beforeId,
      limit: query.limit + 1,
    });
    const items = rows.slice(0, query.limit).map((row) => ({
      id: row.id,
      userId: row.userId,
      username: row.username,
      type: row.type,
      amount: formatRupees(row.amount),
      balanceAfter: formatRupees(row.balanceAfter ?? 0n),
      createdAt: row.createdAt.toISOString(),
      ref: row.ref,
    }));
    const last = items.at(-1);
    return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : null };
  }

  return { add, balanceList };
}

export type RevenueService = ReturnType<typeof createRevenueService>;
