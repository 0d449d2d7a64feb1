import {
  BUSINESS_TIME_ZONE,
  creditTextIn,
  EARNING_TYPES,
  type EarningType,
  formatRupees,
  type IncomeDaily,
  type Locale,
  lastBusinessDays,
  type PageQuery,
  startOfBusinessDay,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { earningsByDay } from './income.queries';
import * as q from './wallet.queries';

export function createWalletService({ db, now }: { db: Db; now: () => Date }) {
  /** The user's wallet movements, newest first, a keyset page at a time; task titles and credit texts in `locale`. */
  async function balanceList(userId: number, { limit, cursor }: PageQuery, locale: Locale) {
    const beforeId = decodeCursor(cursor, isRowId);
    const walletId = await q.findUserAccountId(db, userId, 'wallet');
    if (walletId === undefined) return { items: [], nextCursor: null };
    const rows = await q.listEntries(db, walletId, limit + 1, beforeId);
    const page = keysetPage(rows, limit, (row) => row.id);
    const items = page.items.map(({ ref: { note: _internal, ...stored }, ...row }) => {
      // A manual credit's text for the user, in the reader's language (its preset translated).
      const ref = stored.remark ? { ...stored, remark: creditTextIn(stored.remark, locale) } : stored;
      return {
        id: row.id,
        type: row.type,
        amount: formatRupees(row.amount),
        balanceAfter: formatRupees(row.balanceAfter ?? 0n),
        createdAt: row.createdAt.toISOString(),
        ref: row.taskTitles
          ? { ...ref, taskTitle: row.taskTitles[locale] ?? row.taskTitles.en_US ?? ref.taskTitle }
          : ref,
      };
    });
    return { items, nextCursor: page.nextCursor };
  }

  /** The user's earnings per day in India over the last `days` days, every day present, by kind. */
  async function incomeDaily(userId: number, { days: count }: { days: number }): Promise<IncomeDaily> {
    const days = lastBusinessDays(now(), count);
    const zero = () => Object.fromEntries(EARNING_TYPES.map((t) => [t, 0n])) as Record<EarningType, bigint>;
    const byDay = new Map(days.map((day) => [day, zero()]));
    const walletId = await q.findUserAccountId(db, userId, 'wallet');
    if (walletId !== undefined) {
      for (const row of await earningsByDay(db, walletId, startOfBusinessDay(days[0] ?? ''))) {
        const sums = byDay.get(row.day);
        if (sums && row.type in sums) sums[row.type as EarningType] = BigInt(row.amount ?? '0');
      }
    }
    return {
      timeZone: BUSINESS_TIME_ZONE,
      days: [...byDay].map(([day, sums]) => ({
        day,
        task_reward: formatRupees(sums.task_reward),
        rebate: formatRupees(sums.rebate),
        linked_income: formatRupees(sums.linked_income),
        manual_credit: formatRupees(sums.manual_credit),
      })),
    };
  }

  return { balanceList, incomeDaily };
}

export type WalletService = ReturnType<typeof createWalletService>;
