import type { PayoutAccountType } from '@kamai/contract';
import { and, count, eq, gte, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { builtOnce, builtOnceText } from '../../db/prepared';
import { accountValidationLookups, accountValidations, payoutAccounts, settings, withdrawals } from '../../db/schema';

export type ValidationRow = typeof accountValidations.$inferSelect;
export type NewValidation = typeof accountValidations.$inferInsert;

type Numbered = { accountType: PayoutAccountType; ifsc: string; accountNo: string };

/** One number, whoever typed it: `bank:IFSC:number` or `upi::id` (the stored, normalised forms). */
export const fingerprintOf = (a: Numbered) =>
  `${a.accountType}:${a.accountType === 'bank' ? a.ifsc : ''}:${a.accountNo}`;

/** One owner's check of one number: the key `validationsByFingerprints` answers by. */
export const ownedFingerprintOf = (a: Numbered & { userId: number }) => `${a.userId}/${fingerprintOf(a)}`;

/** What the number's keyed hash is taken of (`number_hash`): apart from the identity ledger's inputs. */
export const numberHashInput = (a: Numbered) => `payout-account:${fingerprintOf(a)}`;

/** Adds the owner's row for the number unless it exists; true when this call created it. */
export async function insertValidation(db: Executor, values: NewValidation) {
  const rows = await db
    .insert(accountValidations)
    .values(values)
    .onConflictDoNothing({ target: [accountValidations.requestedBy, accountValidations.fingerprint] })
    .returning({ id: accountValidations.id });
  return rows.length > 0;
}

export async function lockByFingerprint(db: Executor, userId: number, fingerprint: string) {
  const [row] = await db
    .select()
    .from(accountValidations)
    .where(and(eq(accountValidations.requestedBy, userId), eq(accountValidations.fingerprint, fingerprint)))
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
 * The owner's check of the number as one JSON text (null when never checked), with the names on the owner's other
 * accounts and the stored `accountValidation` setting, for a statement that answers a withdrawal with
 * it (`owner`: the statement's user id column); `payeeFromJson` reads it back. One subquery, so the
 * answer costs no round trip of its own.
 */
export function payeeCheckSql(fingerprint: string | SQL, owner: SQL) {
  return sql<string | null>`(select json_build_object('id', av.id, 'status', av.status,
    'accountStatus', av.account_status, 'registeredName', av.registered_name, 'reason', av.reason,
    'nameMatchScore', av.name_match_score, 'requestedBy', av.requested_by, 'accountName', av.account_name,
    'reviewState', av.review_state, 'refusal', av.refusal,
    'storedSetting', (select s.value from ${settings} s where s.key = 'accountValidation'),
    'others', (select coalesce(json_agg(json_build_object('accountName', pa.account_name,
        'registeredName', ov.registered_name) order by pa.id), '[]'::json)
      from ${payoutAccounts} pa left join ${accountValidations} ov on ov.id = pa.validation_id
      where pa.user_id = ${owner} and pa.validation_id is distinct from av.id))::text
    from ${accountValidations} av where av.fingerprint = ${fingerprint} and av.requested_by = ${owner})`;
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

/** The owners' checks of these numbers, by `ownedFingerprintOf` (a number checked by another user is not found). */
export async function validationsByFingerprints(db: Executor, owned: (Numbered & { userId: number })[]) {
  if (owned.length === 0) return new Map<string, ValidationRow>();
  const rows = await db
    .select()
    .from(accountValidations)
    .where(
      and(
        inArray(accountValidations.requestedBy, [...new Set(owned.map((a) => a.userId))]),
        inArray(accountValidations.fingerprint, [...new Set(owned.map(fingerprintOf))]),
      ),
    );
  return new Map(rows.map((r) => [`${r.requestedBy}/${r.fingerprint}`, r]));
}

/** The check owner's withdrawals paying this number in `states`, locked (their risk or dispatch follows the check). */
export async function withdrawalsTo(db: Executor, v: ValidationRow, states: ('pending' | 'approved')[]) {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, v.requestedBy),
        eq(withdrawals.accountType, v.accountType),
        eq(withdrawals.accountNo, v.accountNo),
        eq(withdrawals.ifsc, v.ifsc),
        inArray(withdrawals.state, states),
      ),
    )
    .orderBy(withdrawals.id)
    .for('update');
}

/**
 * Whether another user's check, live or erased with its account, was of the same number (by its keyed
 * hash: the shared-account signal reaches numbers whose owner deleted the account).
 */
export async function numberOnOtherUsers(db: Executor, userId: number, numberHash: string) {
  const [row] = await db
    .select({ id: accountValidations.id })
    .from(accountValidations)
    .where(and(eq(accountValidations.numberHash, numberHash), ne(accountValidations.requestedBy, userId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Erases a deleted user's checks (docs/decisions/account-deletion.md): kept are the ids, the attempt
 * (the fee posting's key), the status, a bank account's last four digits and the number's keyed hash
 * (`hashes` fills it where a check predates it); a check still under way ends as failed, off the
 * operators' queue, so no late answer writes a name into it.
 */
export async function eraseValidationsOf(db: Executor, userId: number, hashes: Map<number, string>, at: Date) {
  for (const [id, hash] of hashes) {
    await db
      .update(accountValidations)
      .set({ numberHash: hash })
      .where(and(eq(accountValidations.id, id), eq(accountValidations.requestedBy, userId)));
  }
  const v = accountValidations;
  await db
    .update(v)
    .set({
      accountLast4: sql`case when ${v.accountType} = 'bank' then right(${v.accountNo}, 4) end`,
      fingerprint: null,
      ifsc: '',
      accountNo: '',
      accountName: '',
      registeredName: null,
      registeredNameKey: null,
      nameMatchScore: null,
      evidence: null,
      reason: sql`case when ${v.status} = 'pending' then 'erased with the account' end`,
      status: sql`case when ${v.status} = 'pending' then 'failed' else ${v.status} end`,
      reviewState: sql`case when ${v.reviewState} = 'queued' then null else ${v.reviewState} end`,
      erasedAt: at,
      updatedAt: at,
    })
    .where(and(eq(v.requestedBy, userId), isNull(v.erasedAt)));
}

/** A user's checks that have no keyed hash yet (made before it), for `eraseValidationsOf`. */
export async function unhashedValidationsOf(db: Executor, userId: number) {
  return db
    .select({
      id: accountValidations.id,
      accountType: accountValidations.accountType,
      ifsc: accountValidations.ifsc,
      accountNo: accountValidations.accountNo,
    })
    .from(accountValidations)
    .where(
      and(
        eq(accountValidations.requestedBy, userId),
        isNull(accountValidations.numberHash),
        isNull(accountValidations.erasedAt),
      ),
    );
}

/**
 * An identity-key rotation (docs/operations.md): every live check's `number_hash` taken again under
 * the current key, so the shared-number signal compares like with like. Erased checks keep theirs:
 * their number is gone, and they match only while the old key is still a previous one. Answers how
 * many moved.
 */
export async function rehashNumbers(db: Executor, hashOf: (input: string) => Promise<string>) {
  const rows = await db
    .select({
      id: accountValidations.id,
      accountType: accountValidations.accountType,
      ifsc: accountValidations.ifsc,
      accountNo: accountValidations.accountNo,
      numberHash: accountValidations.numberHash,
    })
    .from(accountValidations)
    .where(isNull(accountValidations.erasedAt));
  let moved = 0;
  for (const row of rows) {
    const hash = await hashOf(numberHashInput(row));
    if (hash === row.numberHash) continue;
    await db.update(accountValidations).set({ numberHash: hash }).where(eq(accountValidations.id, row.id));
    moved += 1;
  }
  return moved;
}

/**
 * Moves to the operators' queue every check still pending, not queued, untouched since `cutoff`;
 * answers the ids it moved.
 */
export async function queueOverdueChecks(db: Executor, cutoff: Date, at: Date) {
  return db
    .update(accountValidations)
    .set({ reviewState: 'queued', reviewCause: 'overdue', reviewQueuedAt: at, firstApproverId: null })
    .where(
      and(
        eq(accountValidations.status, 'pending'),
        isNull(accountValidations.reviewState),
        lt(sql`greatest(${accountValidations.createdAt}, ${accountValidations.updatedAt})`, cutoff),
      ),
    )
    .returning({ id: accountValidations.id });
}

/**
 * The account a new withdrawal would pay (the one named, or the default) with the check its
 * `validation_id` points at, in one statement: what withdraw/add reads before `withdraw_request`
 * (benchmark 3, docs/decisions/round-trips-per-write.md). `withdraw_request` copies the account under
 * the wallet's lock; the caller guards what it decides from this read against that copy.
 */
export async function withdrawalAccountOf(db: Executor, userId: number, accountId: number | null) {
  const [row] = await (accountId === null
    ? defaultAccountQuery(db).execute({ userId })
    : accountByIdQuery(db).execute({ userId, accountId }));
  return row;
}

/**
 * `withdrawalAccountOf`'s two reads, built by drizzle once per process and named (`builtOnce`): the
 * first read of every withdraw/add (benchmark 3, docs/performance.md).
 */
const withdrawalAccountQuery = (db: Executor, which: SQL) =>
  db
    .select({
      accountType: payoutAccounts.accountType,
      ifsc: payoutAccounts.ifsc,
      accountNo: payoutAccounts.accountNo,
      accountName: payoutAccounts.accountName,
      check: accountValidations,
    })
    .from(payoutAccounts)
    .leftJoin(accountValidations, eq(accountValidations.id, payoutAccounts.validationId))
    .where(and(eq(payoutAccounts.userId, sql.placeholder('userId')), which))
    .limit(1);
const defaultAccountQuery = builtOnce('kamai_withdrawal_account_default', (db: Executor) =>
  withdrawalAccountQuery(db, eq(payoutAccounts.isDefault, true)),
);
const accountByIdQuery = builtOnce('kamai_withdrawal_account_by_id', (db: Executor) =>
  withdrawalAccountQuery(db, eq(payoutAccounts.id, sql.placeholder('accountId'))),
);

/** What the bank-name signals read besides the check, in one statement of scalar subqueries. */
export interface NameSignalFacts {
  /** The stored `risk` and `accountValidation` settings (null when never stored). */
  riskSetting: unknown;
  validationSetting: unknown;
  others: OtherName[];
  /** Another user's check, live or erased, was of the same number (by its keyed hash). */
  sameNumber: boolean;
  /** Another user keeps an account whose bank name is the check's. */
  sameName: boolean;
}

const np = (name: string) => sql.placeholder(name);
// Built once per process and named (`builtOnceText`): read on every withdraw/add to a verified number
// (benchmark 3, docs/performance.md). A null hash matches no row: `same_number` is false.
const nameSignalFactsQuery = builtOnceText(
  'kamai_name_signal_facts',
  () => sql`select
    (select ${settings.value} from ${settings} where ${settings.key} = 'risk') as risk_setting,
    (select ${settings.value} from ${settings} where ${settings.key} = 'accountValidation') as validation_setting,
    (select coalesce(json_agg(json_build_object('accountName', pa.account_name, 'registeredName', av.registered_name)), '[]')
      from ${payoutAccounts} pa left join ${accountValidations} av on av.id = pa.validation_id
      where pa.user_id = ${np('userId')} and pa.validation_id is distinct from ${np('validationId')}) as others,
    exists (select 1 from ${accountValidations} av
      where av.number_hash = ${np('numberHash')} and av.requested_by <> ${np('userId')}) as same_number,
    exists (select 1 from ${payoutAccounts} pa join ${accountValidations} av on av.id = pa.validation_id
      where pa.user_id <> ${np('userId')} and av.registered_name_key is not null
        and av.registered_name_key = ${np('nameKey')}) as same_name`,
);

/**
 * What the bank-name signals weigh for one user's completed check, in one round trip (scoring a
 * withdrawal: benchmark 3): the names the user gave on their other accounts with the banks' names of
 * those accounts, whether another user's check was of the same number, whether another user keeps an
 * account with this bank name, and the two settings.
 */
export async function nameSignalFacts(db: Executor, userId: number, v: ValidationRow): Promise<NameSignalFacts> {
  const result = await nameSignalFactsQuery(db, {
    userId,
    validationId: v.id,
    numberHash: v.numberHash,
    nameKey: v.registeredNameKey,
  });
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {};
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  return {
    riskSetting: json(row.risk_setting ?? null),
    validationSetting: json(row.validation_setting ?? null),
    others: json<OtherName[]>(row.others ?? []),
    sameNumber: row.same_number === true || row.same_number === 't',
    sameName: row.same_name === true || row.same_name === 't',
  };
}
