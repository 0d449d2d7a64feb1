import type { ControlChangeState } from '@kamai/contract';
import { and, asc, desc, eq, gt, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client';
import { controlChanges, users } from '../db/schema';

export type ControlChangeRow = typeof controlChanges.$inferSelect;

export async function insertControlChange(db: Executor, values: typeof controlChanges.$inferInsert) {
  const [row] = await db.insert(controlChanges).values(values).returning();
  if (!row) throw new Error('insert control_changes returned no row');
  return row;
}

/** Locks a proposed change for its decision: two admins deciding at once run one after the other. */
export async function lockControlChange(db: Executor, id: number) {
  const [row] = await db.select().from(controlChanges).where(eq(controlChanges.id, id)).limit(1).for('update');
  return row;
}

export async function updateControlChange(db: Executor, id: number, values: Partial<ControlChangeRow>) {
  const [row] = await db.update(controlChanges).set(values).where(eq(controlChanges.id, id)).returning();
  if (!row) throw new Error(`control change ${id} vanished while locked`);
  return row;
}

/**
 * Active admins other than `userId` (not frozen, not deleted). Read under a share lock of their rows,
 * so a promotion or freeze committing meanwhile is waited for.
 */
export async function countOtherActiveAdmins(db: Executor, userId: number) {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.frozen, false), isNull(users.deletedAt), ne(users.id, userId)))
    .for('share');
  return rows.length;
}

/** The actor's role and state, locked so a demotion waits for the decision in progress (and the other way round). */
export async function lockActor(db: Executor, userId: number) {
  const [row] = await db
    .select({ role: users.role, frozen: users.frozen, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1)
    .for('share');
  return row;
}

/** Whether `userId`'s present staff role came from a role change `proposerId` proposed. */
export async function promotedOnProposalOf(db: Executor, userId: number, proposerId: number) {
  const [row] = await db
    .select({ proposedBy: controlChanges.proposedBy })
    .from(controlChanges)
    .where(
      and(
        eq(controlChanges.kind, 'role'),
        eq(controlChanges.target, `user:${userId}`),
        eq(controlChanges.state, 'applied'),
        sql`${controlChanges.newValue}->>'role' <> 'user'`,
      ),
    )
    .orderBy(desc(controlChanges.id))
    .limit(1);
  return row?.proposedBy === proposerId;
}

/** Proposed changes with the proposer's, decider's and target account's names, newest first. */
export async function listControlChanges(
  db: Executor,
  filter: { state?: ControlChangeState; id?: number; beforeId?: number; limit: number },
) {
  const proposer = alias(users, 'proposer');
  const decider = alias(users, 'decider');
  const target = alias(users, 'target');
  return db
    .select({
      change: controlChanges,
      proposedByName: proposer.username,
      decidedByName: decider.username,
      targetName: target.username,
    })
    .from(controlChanges)
    .innerJoin(proposer, eq(proposer.id, controlChanges.proposedBy))
    .leftJoin(decider, eq(decider.id, controlChanges.decidedBy))
    .leftJoin(target, sql`${controlChanges.target} = 'user:' || ${target.id}`)
    .where(
      and(
        filter.state === undefined ? undefined : eq(controlChanges.state, filter.state),
        filter.id === undefined ? undefined : eq(controlChanges.id, filter.id),
        filter.beforeId === undefined ? undefined : lt(controlChanges.id, filter.beforeId),
      ),
    )
    .orderBy(desc(controlChanges.id))
    .limit(filter.limit);
}

/** The pending changes not yet expired: when each was proposed and may be applied (few rows). */
export async function listLivePending(db: Executor, at: Date) {
  return db
    .select({ createdAt: controlChanges.createdAt, earliestApplyAt: controlChanges.earliestApplyAt })
    .from(controlChanges)
    .where(and(eq(controlChanges.state, 'pending'), gt(controlChanges.expiresAt, at)));
}

/** Pending changes whose time ran out, oldest first, locked (skipping any being decided). */
export async function lockExpired(db: Executor, at: Date, limit: number) {
  return db
    .select()
    .from(controlChanges)
    .where(and(eq(controlChanges.state, 'pending'), lte(controlChanges.expiresAt, at)))
    .orderBy(asc(controlChanges.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}
