import type { PostingType } from '@kamai/contract';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, entries, postings, users } from '../../db/schema';

/** Every user-wallet entry, newest first, optionally of one user and one posting type. */
export async function listWalletEntries(
  db: Executor,
  filter: { userId?: number; type?: PostingType; beforeId?: number; limit: number },
) {
  return db
    .select({
      id: entries.id,
      userId: users.id,
      username: users.username,
      type: postings.type,
      amount: entries.amount,
      balanceAfter: entries.balanceAfter,
      createdAt: entries.createdAt,
      ref: postings.ref,
    })
    .from(entries)
    .innerJoin(accounts, and(eq(accounts.id, entries.accountId), eq(accounts.kind, 'wallet')))
    .innerJoin(users, eq(users.id, accounts.userId))
    .innerJoin(postings, eq(postings.id, entries.postingId))
    .where(
      and(
        filter.userId === undefined ? undefined : eq(accounts.userId, filter.userId),
        filter.type === undefined ? undefined : eq(postings.type, filter.type),
        filter.beforeId === undefined ? undefined : lt(entries.id, filter.beforeId),
      ),
    )
    .orderBy(desc(entries.id))
    .limit(filter.limit);
}
