import type { CreditRequestState, PostingType } from '@kamai/contract';
import { and, desc, eq, lt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client';
import { accounts, creditRequests, entries, postings, users } from '../../db/schema';

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

export type CreditRequestRow = typeof creditRequests.$inferSelect;

export async function insertCreditRequest(db: Executor, values: typeof creditRequests.$inferInsert) {
  const [row] = await db.insert(creditRequests).values(values).returning();
  if (!row) throw new Error('insert credit_requests returned no row');
  return row;
}

/** Locks a credit request for its decision: two admins deciding at once run one after the other. */
export async function lockCreditRequest(db: Executor, id: number) {
  const [row] = await db.select().from(creditRequests).where(eq(creditRequests.id, id)).limit(1).for('update');
  return row;
}

export async function updateCreditRequest(db: Executor, id: number, values: Partial<CreditRequestRow>) {
  const [row] = await db.update(creditRequests).set(values).where(eq(creditRequests.id, id)).returning();
  if (!row) throw new Error(`credit request ${id} vanished while locked`);
  return row;
}

/** Credit requests with the credited user's and the requester's names, newest first. */
export async function listCreditRequests(
  db: Executor,
  filter: { state?: CreditRequestState; id?: number; beforeId?: number; limit: number },
) {
  const requester = alias(users, 'requester');
  return db
    .select({ request: creditRequests, username: users.username, requestedByName: requester.username })
    .from(creditRequests)
    .innerJoin(users, eq(users.id, creditRequests.userId))
    .innerJoin(requester, eq(requester.id, creditRequests.requestedBy))
    .where(
      and(
        filter.state === undefined ? undefined : eq(creditRequests.state, filter.state),
        filter.id === undefined ? undefined : eq(creditRequests.id, filter.id),
        filter.beforeId === undefined ? undefined : lt(creditRequests.id, filter.beforeId),
      ),
    )
    .orderBy(desc(creditRequests.id))
    .limit(filter.limit);
}
