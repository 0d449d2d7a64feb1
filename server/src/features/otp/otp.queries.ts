import { and, desc, eq, gt, inArray, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { otpCodes, otpDeliveries, otpOutbox, users } from '../../db/schema';

/** Serialises code requests for one target inside the caller's transaction. */
export async function lockTarget(db: Executor, target: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`otp:${target}`}))`);
}

export async function latestCodeAt(db: Executor, target: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: otpCodes.createdAt })
    .from(otpCodes)
    .where(eq(otpCodes.target, target))
    .orderBy(desc(otpCodes.createdAt))
    .limit(1);
  return row?.createdAt;
}

/** Codes sent to any spelling of one identity (`canonicalIdentity`) since `since`. */
export async function countCodesSince(db: Executor, identity: string, since: Date) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(otpCodes)
    .where(and(eq(otpCodes.identity, identity), gt(otpCodes.createdAt, since)));
  return row?.count ?? 0;
}

export async function insertCode(db: Executor, values: typeof otpCodes.$inferInsert) {
  const [row] = await db.insert(otpCodes).values(values).returning({ id: otpCodes.id });
  if (!row) throw new Error('insert otp_codes returned no row');
  return row.id;
}

export async function deleteCode(db: Executor, id: number) {
  await db.delete(otpCodes).where(eq(otpCodes.id, id));
}

/** A code of the target that can still be used: not used, not expired, tries left. */
function usableCode(target: string, now: Date, maxTries: number) {
  return and(
    eq(otpCodes.target, target),
    isNull(otpCodes.consumedAt),
    gt(otpCodes.expiresAt, now),
    lt(otpCodes.attempts, maxTries),
  );
}

/** Whether the target has a code it could still use: one read, no lock, no transaction (the cheap refusal). */
export async function hasUsableCode(db: Executor, target: string, now: Date, maxTries: number) {
  const [row] = await db
    .select({ id: otpCodes.id })
    .from(otpCodes)
    .where(usableCode(target, now, maxTries))
    .limit(1);
  return row !== undefined;
}

/** The newest code of a target that can still be used, locked for the caller's transaction. */
export async function lockUsableCode(db: Executor, target: string, now: Date, maxTries: number) {
  const [row] = await db
    .select()
    .from(otpCodes)
    .where(usableCode(target, now, maxTries))
    .orderBy(desc(otpCodes.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function recordWrongTry(db: Executor, id: number) {
  const [row] = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(eq(otpCodes.id, id))
    .returning({ attempts: otpCodes.attempts });
  return row?.attempts ?? 0;
}

export async function consumeCode(db: Executor, id: number, now: Date) {
  await db.update(otpCodes).set({ consumedAt: now }).where(eq(otpCodes.id, id));
}

/** Makes a consumed code usable again (what it was used for could not be finished). */
export async function unconsumeCode(db: Executor, id: number) {
  await db.update(otpCodes).set({ consumedAt: null }).where(eq(otpCodes.id, id));
}

export async function insertOutbox(db: Executor, values: typeof otpOutbox.$inferInsert) {
  await db.insert(otpOutbox).values(values);
}

/**
 * Newest first; `beforeId` continues a page. Never a code sent to a staff account (reviewer or
 * admin): with it, whoever reads the outbox could reset that account's password (docs/decisions/sms-delivery.md).
 */
export async function listOutbox(db: Executor, limit: number, beforeId?: number) {
  const staff = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, otpOutbox.target), sql`${users.role} <> 'user'`));
  return db
    .select()
    .from(otpOutbox)
    .where(and(notExists(staff), beforeId === undefined ? undefined : lt(otpOutbox.id, beforeId)))
    .orderBy(desc(otpOutbox.id))
    .limit(limit);
}

export async function insertDelivery(db: Executor, values: typeof otpDeliveries.$inferInsert) {
  await db.insert(otpDeliveries).values(values);
}

/** Newest first, optionally of one target; `beforeId` continues a page. */
export async function listDeliveries(db: Executor, opts: { limit: number; beforeId?: number; target?: string }) {
  return db
    .select()
    .from(otpDeliveries)
    .where(
      and(
        opts.target === undefined ? undefined : eq(otpDeliveries.target, opts.target),
        opts.beforeId === undefined ? undefined : lt(otpDeliveries.id, opts.beforeId),
      ),
    )
    .orderBy(desc(otpDeliveries.id))
    .limit(opts.limit);
}

/**
 * Applies a provider's delivery report to its accepted send. Only a `sent` row changes: the first final
 * report wins, so a repeated or late report cannot flip `delivered` back to `undelivered`.
 */
export async function applyDeliveryReport(
  db: Executor,
  report: {
    provider: 'msg91' | 'twilio';
    messageId: string;
    status: 'delivered' | 'undelivered';
    error?: string;
    at: Date;
  },
) {
  const rows = await db
    .update(otpDeliveries)
    .set({ status: report.status, error: report.error ?? null, updatedAt: report.at })
    .where(
      and(
        eq(otpDeliveries.provider, report.provider),
        eq(otpDeliveries.providerMessageId, report.messageId),
        inArray(otpDeliveries.status, ['sent']),
      ),
    )
    .returning({ id: otpDeliveries.id });
  return rows.length;
}

/** Every code, outbox message and delivery report sent to `target` (docs/decisions/account-deletion.md). */
export async function forgetOtpTarget(db: Executor, target: string) {
  await db.delete(otpCodes).where(eq(otpCodes.target, target));
  await db.delete(otpOutbox).where(eq(otpOutbox.target, target));
  await db.delete(otpDeliveries).where(eq(otpDeliveries.target, target));
}
