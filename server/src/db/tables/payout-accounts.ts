import type { PayoutAccountType, PayoutGatewayName } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/** A user's bank or UPI payout accounts (docs/design.md "Product rules"); at most one default per user. */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** Upper-cased; empty for UPI. */
    ifsc: text('ifsc').notNull().default(''),
    /** Bank: digits. UPI: the UPI ID, lower-cased. */
    accountNo: text('account_no').notNull(),
    accountName: text('account_name').notNull(),
    /** The owner's check of this account's number; null before checks began. */
    validationId: bigint('validation_id', { mode: 'number' }).references(() => accountValidations.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payout_accounts_user_idx').on(t.userId),
    // The fraud signal "payout account saved by another user" looks accounts up by number.
    index('payout_accounts_account_no_idx').on(t.accountNo),
    uniqueIndex('payout_accounts_one_default_idx').on(t.userId).where(sql`${t.isDefault}`),
    check('payout_accounts_type', sql`${t.accountType} in ('upi', 'bank')`),
  ],
);

/**
 * One user's check of a bank account or UPI id with the bank (docs/decisions/payout-account-validation.md):
 * one row per owner (`requested_by`) and number (`fingerprint`), reused by that owner's own binds of the
 * number and never by another user's, who gets a check (and a fee) of their own. `pending` until the
 * gateway reports; `completed` with the bank's answer (`account_status` active or invalid, the registered
 * name); `failed` when the check itself could not be made (a later bind retries, as attempt + 1). When
 * the owner deletes the account the row keeps only `account_last4`, `number_hash`, the ids of the check
 * and its fee's reference (id and attempt); `erased_at` says so (docs/decisions/account-deletion.md).
 */
export const accountValidations = pgTable(
  'account_validations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** `bank:IFSC:number` or `upi::id`; null once erased. */
    fingerprint: text('fingerprint'),
    /**
     * A keyed hash (HMAC-SHA256 under the identity-hash key) of the fingerprint: the same number on
     * another user's check, live or erased, without the number itself. Null on checks made before it.
     */
    numberHash: text('number_hash'),
    /** A bank account's last four digits, kept when the rest is erased. */
    accountLast4: text('account_last4'),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    ifsc: text('ifsc').notNull(),
    accountNo: text('account_no').notNull(),
    /** The name typed by the user who started the check (sent as the fund account's name). */
    accountName: text('account_name').notNull(),
    /** The check's owner: the one user whose binds it answers. */
    requestedBy: bigint('requested_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    status: text('status').$type<'pending' | 'completed' | 'failed'>().notNull().default('pending'),
    attempt: integer('attempt').notNull().default(1),
    /** RazorpayX `fav_...` (the sandbox's own id), once created. */
    gatewayValidationId: text('gateway_validation_id'),
    fundAccountId: text('fund_account_id'),
    /** `active` or `invalid` (completed only). */
    accountStatus: text('account_status'),
    registeredName: text('registered_name'),
    /** The registered name's words sorted (contract nameKey): equal for the same person's name. */
    registeredNameKey: text('registered_name_key'),
    /** The gateway's own name_match_score (0-100), where it returns one. */
    nameMatchScore: integer('name_match_score'),
    /** Why it is invalid or failed, in the gateway's words. */
    reason: text('reason'),
    /** The gateway's answer that settled it. */
    evidence: jsonb('evidence').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * An operator's check instead of the bank's (docs/decisions/account-checks-by-operators.md): `queued`
     * while it waits (status stays pending), then `approved` or `refused`; null: the bank's check only.
     */
    reviewState: text('review_state').$type<'queued' | 'approved' | 'refused'>(),
    /** Why it was queued: the check is `unavailable` (the gateway's answer), `disabled` (configuration) or `overdue`. */
    reviewCause: text('review_cause').$type<'unavailable' | 'disabled' | 'overdue'>(),
    reviewQueuedAt: timestamp('review_queued_at', { withTimezone: true }),
    /** The first of two approvals (above the four-eyes threshold). */
    firstApproverId: bigint('first_approver_id', { mode: 'number' }).references(() => users.id),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    /** A refusal's reason (an ACCOUNT_CHECK_REFUSALS code, read by the user in their language). */
    refusal: text('refusal'),
  },
  (t) => [
    uniqueIndex('account_validations_owner_fingerprint_idx').on(t.requestedBy, t.fingerprint),
    index('account_validations_number_hash_idx').on(t.numberHash),
    uniqueIndex('account_validations_gateway_id_idx').on(t.gatewayValidationId),
    index('account_validations_name_key_idx').on(t.registeredNameKey),
    check('account_validations_status', sql`${t.status} in ('pending', 'completed', 'failed')`),
    check(
      'account_validations_review_state',
      sql`${t.reviewState} is null or ${t.reviewState} in ('queued', 'approved', 'refused')`,
    ),
    /** The queue (oldest first) and the overdue sweep read pending checks by these. */
    index('account_validations_queue_idx').on(t.status, t.reviewState, t.createdAt),
  ],
);

/**
 * Which users looked an account up, and when: the per-day limit counts these (a user's own repeat of a
 * number is not a new one), so validation cannot be used to learn strangers' names in bulk.
 */
export const accountValidationLookups = pgTable(
  'account_validation_lookups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    validationId: bigint('validation_id', { mode: 'number' })
      .notNull()
      .references(() => accountValidations.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_validation_lookups_user_validation_idx').on(t.userId, t.validationId),
    index('account_validation_lookups_user_created_idx').on(t.userId, t.createdAt),
  ],
);
