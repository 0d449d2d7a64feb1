import { randomBytes } from 'node:crypto';
import {
  encodeRejectReason,
  type GrievanceOfficer,
  type Locale,
  type PageSlug,
  type PageText,
  type SupportContact,
  WITHDRAWAL_OPEN_STATES,
} from '@kamai/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  clientSignals,
  idempotencyKeys,
  linkedAccounts,
  linkedPairings,
  loginAttempts,
  noticeReads,
  notifications,
  otpCodes,
  otpDeliveries,
  otpOutbox,
  payoutAccounts,
  pushSubscriptions,
  sandboxPayouts,
  sessions,
  settings,
  surveyResponses,
  taskProofs,
  users,
  withdrawals,
} from '../../db/schema';

/** A page as stored in settings under `page:<slug>`. */
export interface StoredPage {
  texts: Partial<Record<Locale, PageText>>;
  contact: SupportContact | null;
  /** Privacy only; absent on pages saved before it existed. */
  grievance?: GrievanceOfficer | null;
}

const pageKey = (slug: PageSlug) => `page:${slug}`;

export async function getPage(db: Executor, slug: PageSlug, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select({ value: settings.value, updatedAt: settings.updatedAt })
    .from(settings)
    .where(eq(settings.key, pageKey(slug)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ? { value: row.value as StoredPage, updatedAt: row.updatedAt } : undefined;
}

export async function putPage(db: Executor, slug: PageSlug, value: StoredPage, at: Date) {
  await db
    .insert(settings)
    .values({ key: pageKey(slug), value, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
}

/** The user row, locked, if not deleted already. */
export async function lockLiveUser(db: Executor, userId: number) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), sql`${users.deletedAt} is null`))
    .limit(1)
    .for('update');
  return row;
}

export async function countOpenWithdrawals(db: Executor, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), inArray(withdrawals.state, [...WITHDRAWAL_OPEN_STATES])));
  return row?.n ?? 0;
}

/**
 * Erases or anonymises everything that identifies the user, in the caller's transaction
 * (docs/decisions/account-deletion.md,
 * DPDP Act 2023). The user row stays as the ledger's anonymous owner (`deleted-<id>`, no password, an
 * invite code no one can type); money records stay with their amounts, their account details masked.
 */
export async function eraseUser(db: Executor, user: { id: number; username: string }, at: Date) {
  const id = user.id;
  await db
    .update(users)
    .set({
      username: `deleted-${id}`,
      // Not an argon2 hash: nothing verifies against it.
      passwordHash: '!deleted',
      // Longer than any invite code a form accepts (32), so no one can register under this account.
      inviteCode: `deleted-${id}-${randomBytes(16).toString('hex')}`,
      canonicalIdentity: null,
      frozen: true,
      deletedAt: at,
    })
    .where(eq(users.id, id));
  await db.delete(sessions).where(eq(sessions.userId, id));
  await db.delete(loginAttempts).where(eq(loginAttempts.username, user.username));
  await db.delete(otpCodes).where(eq(otpCodes.target, user.username));
  await db.delete(otpOutbox).where(eq(otpOutbox.target, user.username));
  // Where the account came from (addresses, browsers, device ids), where codes were sent,
  // where pushes go.
  await db.delete(otpDeliveries).where(eq(otpDeliveries.target, user.username));
  await db.delete(clientSignals).where(eq(clientSignals.userId, id));
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id));
  await db.delete(surveyResponses).where(eq(surveyResponses.userId, id));
  await db.delete(notifications).where(eq(notifications.userId, id));
  await db.delete(noticeReads).where(eq(noticeReads.userId, id));
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, id));
  await db.delete(payoutAccounts).where(eq(payoutAccounts.userId, id));
  // Withdrawals are money records: amounts and states stay, the account behind them goes.
  await db
    .update(withdrawals)
    .set({
      accountNo: sql`case when length(${withdrawals.accountNo}) > 4 then '••••' || right(${withdrawals.accountNo}, 4) else '••••' end`,
      accountName: '',
      ifsc: '',
    })
    .where(eq(withdrawals.userId, id));
  // The sandbox gateway's own copy of each payout (a development stand-in for the bank's side).
  await db
    .update(sandboxPayouts)
    .set({ account: {} })
    .where(
      sql`${sandboxPayouts.orderNo} in (select ${withdrawals.id}::text from ${withdrawals} where ${withdrawals.userId} = ${id})`,
    );
  await db
    .update(linkedAccounts)
    .set({ phone: sql`'deleted-' || ${linkedAccounts.id}`, status: 'offline', onlineSince: null })
    .where(eq(linkedAccounts.userId, id));
  await db.delete(linkedPairings).where(eq(linkedPairings.userId, id));
  await db.update(taskProofs).set({ imageUrl: null, link: null }).where(eq(taskProofs.userId, id));
}

/**
 * The deleted account's proofs still waiting for review are rejected, with the reason the user would
 * read in their language (`account_deleted`): no one is left to credit (docs/decisions/unclaimed-money.md).
 * Answers how many.
 */
export async function rejectPendingProofs(db: Executor, userId: number, at: Date): Promise<number> {
  const rejected = await db
    .update(taskProofs)
    .set({ state: 'rejected', reason: encodeRejectReason('account_deleted', ''), reviewedAt: at })
    .where(and(eq(taskProofs.userId, userId), eq(taskProofs.state, 'pending')))
    .returning({ id: taskProofs.id });
  return rejected.length;
}

/**
 * Money put on a deleted account after its deletion (the `credit_after_deletion` rule): every entry
 * raising a deleted user's wallet or hold in a posting made after `deleted_at`, the bank's return of
 * the user's own payout included (that goes to `platform_unclaimed`).
 */
export async function creditsAfterDeletion(db: Executor) {
  const result = await db.execute(sql`
    select p.id as posting_id, p.type, p.created_at, u.id as user_id, u.deleted_at, a.kind, e.amount::text as amount
    from ${users} u
    join accounts a on a.user_id = u.id
    join entries e on e.account_id = a.id and e.amount > 0
    join postings p on p.id = e.posting_id and p.created_at > u.deleted_at
    where u.deleted_at is not null
    order by p.id, e.id`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    postingId: String(r.posting_id),
    type: String(r.type),
    createdAt: new Date(r.created_at as string),
    userId: Number(r.user_id),
    deletedAt: new Date(r.deleted_at as string),
    kind: String(r.kind),
    amount: BigInt(r.amount as string),
  }));
}
