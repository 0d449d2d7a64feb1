import { and, asc, eq, gt, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accounts, accountValidations, clientSignals, payoutAccounts, users, withdrawals } from '../../db/schema';

/** The operators' queue: pending checks waiting for a decision, oldest first (keyset on id). */
export async function listQueued(db: Executor, limit: number, afterId?: number) {
  return db
    .select()
    .from(accountValidations)
    .where(
      and(
        eq(accountValidations.status, 'pending'),
        eq(accountValidations.reviewState, 'queued'),
        afterId === undefined ? undefined : gt(accountValidations.id, afterId),
      ),
    )
    .orderBy(asc(accountValidations.id))
    .limit(limit);
}

/** Who keeps each of these numbers, with the account (its name, when bound) and the owner's wallet. */
export async function ownersOf(db: Executor, validationIds: number[]) {
  if (validationIds.length === 0) return [];
  return db
    .select({
      validationId: payoutAccounts.validationId,
      userId: payoutAccounts.userId,
      username: users.username,
      registeredAt: users.createdAt,
      boundAt: payoutAccounts.createdAt,
      accountName: payoutAccounts.accountName,
      balance: sql<string>`coalesce((select ${accounts.balance} from ${accounts}
        where ${accounts.userId} = ${payoutAccounts.userId} and ${accounts.kind} = 'wallet'), 0)::text`,
    })
    .from(payoutAccounts)
    .innerJoin(users, eq(users.id, payoutAccounts.userId))
    .where(inArray(payoutAccounts.validationId, validationIds))
    .orderBy(asc(payoutAccounts.id));
}

/** Paise waiting in withdrawals to this number (pending review or approved, not yet handed to the bank). */
export async function waitingTo(
  db: Executor,
  v: { accountType: 'upi' | 'bank'; ifsc: string; accountNo: string },
  userIds: number[],
) {
  if (userIds.length === 0) return new Map<number, bigint>();
  const rows = await db
    .select({ userId: withdrawals.userId, total: sql<string>`sum(${withdrawals.amount})::text` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.accountType, v.accountType),
        eq(withdrawals.accountNo, v.accountNo),
        eq(withdrawals.ifsc, v.ifsc),
        inArray(withdrawals.state, ['pending', 'approved']),
        inArray(withdrawals.userId, userIds),
      ),
    )
    .groupBy(withdrawals.userId);
  return new Map(rows.map((r) => [r.userId, BigInt(r.total)]));
}

/** Which of these users share a device id with another user (registration or login). */
export async function sharingDevice(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return new Set<number>();
  const other = sql.raw('other');
  const rows = await db
    .selectDistinct({ userId: clientSignals.userId })
    .from(clientSignals)
    .where(
      and(
        inArray(clientSignals.userId, userIds),
        isNotNull(clientSignals.deviceId),
        sql`exists (select 1 from ${clientSignals} ${other} where ${other}.device_id = ${clientSignals.deviceId}
          and ${other}.user_id <> ${clientSignals.userId})`,
      ),
    );
  return new Set(rows.map((r) => r.userId));
}

/** The names on each owner's other payout accounts (not this number's). */
export async function otherAccountNames(db: Executor, userIds: number[], exceptValidationId: number) {
  if (userIds.length === 0) return [];
  return db
    .select({ userId: payoutAccounts.userId, accountName: payoutAccounts.accountName })
    .from(payoutAccounts)
    .where(
      and(
        inArray(payoutAccounts.userId, userIds),
        sql`${payoutAccounts.validationId} is distinct from ${exceptValidationId}`,
        ne(payoutAccounts.accountName, ''),
      ),
    );
}
