import type { PayoutAccountType } from '@kamai/contract';
import { and, count, eq, gte, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accountValidationLookups, accountValidations, payoutAccounts, settings, withdrawals } from '../../db/schema';

export type ValidationRow = typeof accountValidations.$inferSelect;
export type NewValidation = typeof accountValidations.$inferInsert;

/** One number, whoever typed it: `bank:IFSC:number` or `upi::id` (the stored, normalised forms). */
export const fingerprintOf = (a: { accountType: PayoutAccountType; ifsc: string; accountNo: string }) =>
  `${a.accountType}:${a.accountType === 'bank' ? a.ifsc : ''}:${a.accountNo}`;

/** Adds the number's row unless it exists; true when this call created it. */
export async function insertValidation(db: Executor, values: NewValidation) {
  const rows = await db
    .insert(accountValidations)
    .values(values)
    .onConflictDoNothing({ target: accountValidations.fingerprint })
    .returning({ id: accountValidations.id });
  return rows.length > 0;
}

export async function lockByFingerprint(db: Executor, fingerprint: string) {
  const [row] = await db
    .select()
    .from(accountValidations)
    .where(eq(accountValidations.fingerprint, fingerprint))
    .limit(1)
    .for('update');
  return row;
}

export async function findValidation(db: Executor, id: number) {
  const [row] = await db.select().from(accountValidations).where(eq(accountValidations.id, id)).limit(1);
  return row;
}

export async function lockValidation(db: Executor, id: number) {
  const [row] = await db.select().from(accountValidations).where(eq(accountValidations.id, id)).limit(1).for('update');
  return row;
}

export async function findByGatewayId(db: Executor, gatewayValidationId: string) {
  const [row] = await db
    .select()
    .from(accountValidations)
    .where(eq(accountValidations.gatewayValidationId, gatewayValidationId))
    .limit(1);
  return row;
}

export async function updateValidation(db: Executor, id: number, values: Partial<NewValidation>) {
  const [row] = await db.update(accountValidations).set(values).where(eq(accountValidations.id, id)).returning();
  if (!row) throw new Error(`account validation ${id} vanished while locked`);
  return row;
}

/** Records that the user looked this number up; false when they had already (not a new lookup). */
export async function insertLookup(db: Executor, userId: number, validationId: number, at: Date) {
  const rows = await db
    .insert(accountValidationLookups)
    .values({ userId, validationId, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: accountValidationLookups.id });
  return rows.length > 0;
}

export async function hasLookup(db: Executor, userId: number, validationId: number) {
  const [row] = await db
    .select({ id: accountValidationLookups.id })
    .from(accountValidationLookups)
    .where(and(eq(accountValidationLookups.userId, userId), eq(accountValidationLookups.validationId, validationId)))
    .limit(1);
  return Boolean(row);
}

export async function lookupsSince(db: Executor, userId: number, since: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(accountValidationLookups)
    .where(and(eq(accountValidationLookups.userId, userId), gte(accountValidationLookups.createdAt, since)));
  return row?.n ?? 0;
}

/** Checks of many ids at once (lists). */
export async function validationsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return new Map<number, ValidationRow>();
  const rows = await db.select().from(accountValidations).where(inArray(accountValidations.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * What a withdrawal's answer reads of its number's check: `verificationOf` reads the state, and the name
 * match (`namesCompared`) the names and RazorpayX's own score for the name the check was started with.
 */
export type PayeeCheck = Pick<
  ValidationRow,
  | 'id'
  | 'status'
  | 'accountStatus'
  | 'registeredName'
  | 'reason'
  | 'nameMatchScore'
  | 'requestedBy'
  | 'accountName'
  | 'reviewState'
  | 'refusal'
>;

/** One of a user's payout accounts as the name match reads it: the name typed for it and the bank's name. */
export interface OtherName {
  accountName: string;
  registeredName: string | null;
}

/**
 * A withdrawal's payee as the console shows it: the number's check, the names on the user's other
 * accounts (by check: not the paid number's) and the stored `accountValidation` setting (raw JSON, or
 * none: read over the defaults by `settingOver`).
 */
export interface PayeeRead {
  check: PayeeCheck;
  others: OtherName[];
  storedSetting: unknown;
}

/**
 * The number's check as one JSON text (null when never checked), with the names on the owner's other
 * accounts and the stored `accountValidation` setting, for a statement that answers a withdrawal with
 * it (`owner`: the statement's user id column); `payeeFromJson` reads it back. One subquery, so the
 * answer costs no round trip of its own.
 */
export function payeeCheckSql(fingerprint: string, owner: SQL) {
  return sql<string | null>`(select json_build_object('id', av.id, 'status', av.status,
    'accountStatus', av.account_status, 'registeredName', av.registered_name, 'reason', av.reason,
    'nameMatchScore', av.name_match_score, 'requestedBy', av.requested_by, 'accountName', av.account_name,
    'reviewState', av.review_state, 'refusal', av.refusal,
    'storedSetting', (select s.value from ${settings} s where s.key = 'accountValidation'),
    'others', (select coalesce(json_agg(json_build_object('accountName', pa.account_name,
        'registeredName', ov.registered_name) order by pa.id), '[]'::json)
      from ${payoutAccounts} pa left join ${accountValidations} ov on ov.id = pa.validation_id
      where pa.user_id = ${owner} and pa.validation_id is distinct from av.id))::text
    from ${accountValidations} av where av.fingerprint = ${fingerprint})`;
}

export function payeeFromJson(text: string | null | undefined): PayeeRead | undefined {
  if (!text) return undefined;
  const { others, storedSetting, ...check } = JSON.parse(text) as PayeeCheck & Omit<PayeeRead, 'check'>;
  return {
    check: { ...check, id: Number(check.id), requestedBy: Number(check.requestedBy) },
    others,
    storedSetting,
  };
}

/** The names on every payout account of these users (one read for a list), with the check each points at. */
export async function accountNamesOf(db: Executor, userIds: number[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      userId: payoutAccounts.userId,
      validationId: payoutAccounts.validationId,
      accountName: payoutAccounts.accountName,
      registeredName: accountValidations.registeredName,
    })
    .from(payoutAccounts)
    .leftJoin(accountValidations, eq(accountValidations.id, payoutAccounts.validationId))
    .where(inArray(payoutAccounts.userId, [...new Set(userIds)]))
    .orderBy(payoutAccounts.id);
}

export async function validationsByFingerprints(db: Executor, fingerprints: string[]) {
  if (fingerprints.length === 0) return new Map<string, ValidationRow>();
  const rows = await db.select().from(accountValidations).where(inArray(accountValidations.fingerprint, fingerprints));
  return new Map(rows.map((r) => [r.fingerprint, r]));
}

/** Withdrawals paying this number in `states`, locked (their risk or dispatch follows the check). */
export async function withdrawalsTo(db: Executor, v: ValidationRow, states: ('pending' | 'approved')[]) {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.accountType, v.accountType),
        eq(withdrawals.accountNo, v.accountNo),
        eq(withdrawals.ifsc, v.ifsc),
        inArray(withdrawals.state, states),
      ),
    )
    .orderBy(withdrawals.id)
    .for('update');
}

/** The names the user gave on their other accounts, with the bank's names of those accounts. */
export async function otherNames(db: Executor, userId: number, exceptValidationId: number) {
  return db
    .select({ accountName: payoutAccounts.accountName, registeredName: accountValidations.registeredName })
    .from(payoutAccounts)
    .leftJoin(accountValidations, eq(accountValidations.id, payoutAccounts.validationId))
    .where(
      and(
        eq(payoutAccounts.userId, userId),
        sql`${payoutAccounts.validationId} is distinct from ${exceptValidationId}`,
      ),
    );
}

/** Whether another user keeps an account whose bank name is this one (the shared-account signal). */
export async function nameOnOtherUsers(db: Executor, userId: number, nameKey: string) {
  const [row] = await db
    .select({ id: payoutAccounts.id })
    .from(payoutAccounts)
    .innerJoin(accountValidations, eq(accountValidations.id, payoutAccounts.validationId))
    .where(
      and(
        ne(payoutAccounts.userId, userId),
        isNotNull(accountValidations.registeredNameKey),
        eq(accountValidations.registeredNameKey, nameKey),
      ),
    )
    .limit(1);
  return Boolean(row);
}
