import { EARNING_TYPES } from '@kamai/contract';
import { and, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { entries, postings } from '../../db/schema';
import { businessDaySql } from '../../platform/business-day-sql';

/** Money that came into one wallet since `since` by earning type, per day in India (entries_account_idx). */
export async function earningsByDay(db: Executor, walletId: number, since: Date) {
  const day = businessDaySql(entries.createdAt);
  return db
    .select({ day, type: postings.type, amount: sql<string>`sum(${entries.amount})::text` })
    .from(entries)
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(
      and(
        eq(entries.accountId, walletId),
        gte(entries.createdAt, since),
        gt(entries.amount, 0n),
        inArray(postings.type, [...EARNING_TYPES]),
      ),
    )
    .groupBy(day, postings.type);
}
