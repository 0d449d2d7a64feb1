import { formatRupees, type Locale, type PageQuery } from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { checkLedger } from './wallet.ledger';
import * as q from './wallet.queries';

export function createWalletService({ db }: { db: Db }) {
  /** The user's wallet movements, newest first, a keyset page at a time; task titles in `locale`. */
  async function balanceList(userId: number, { limit, cursor }: PageQuery, locale: Locale) {
    const beforeId = decodeCursor(cursor, isRowId);
    const walletId = await q.findUserAccountId(db, userId, 'wallet');
    if (walletId === undefined) return { items: [], nextCursor: null };
    const rows = await q.listEntries(db, walletId, limit + 1, beforeId);
    const items = rows.slice(0, limit).map((row) => ({
      id: row.id,
      type: row.type,
      amount: formatRupees(row.amount),
      balanceAfter: formatRupees(row.balanceAfter ?? 0n),
      createdAt: row.createdAt.toISOString(),
      ref: row.taskTitles
        ? { ...row.ref, taskTitle: row.taskTitles[locale] ?? row.taskTitles.en_US ?? row.ref.taskTitle }
        : row.ref,
    }));
    const last = items.at(-1);
    return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
  }

  return { balanceList, checkLedger: () => checkLedger(db) };
}

export type WalletService = ReturnType<typeof createWalletService>;
