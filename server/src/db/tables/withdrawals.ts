import type { PayoutAccountType, PayoutGatewayName, RiskReasonKey, WithdrawalState } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { payoutAccounts } from './payout-accounts';
import { users } from './users';
import { postings } from './wallet';

/**
 * Withdrawal requests (docs/design.md "State machines"). The payout account is copied in when requested, so a later edit
 * or delete of the account cannot change where the money goes. `amount` is paise; while the state is
 * pending, approved or processing exactly this amount sits on the user's hold.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    accountId: bigint('account_id', { mode: 'number' }).references(() => payoutAccounts.id, { onDelete: 'set null' }),
    accountType: text('account_type').$type<PayoutAccountType>().notNull(),
    ifsc: text('ifsc').notNull(),
    accountNo: text('account_no').notNull(),
    accountName: text('account_name').notNull(),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** Paise taken from `amount` when paid (the fee setting when requested); the account receives the rest. */
    fee: bigint('fee', { mode: 'bigint' }).notNull().default(sql`0`),
    state: text('state').$type<WithdrawalState>().notNull().default('pending'),
    /** The rejection's or the failure's reason. */
    reason: text('reason'),
    /** The bank reference once paid. */
    reference: text('reference'),
    reviewerId: bigint('reviewer_id', { mode: 'number' }).references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The last time the payout was handed to the gateway (reconciliation re-dispatches after a timeout). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /**
     * The gateway that pays it, fixed at approval (PAYOUT_GATEWAY then): a later change of the setting
     * never moves a payout in flight. Null until approved.
     */
    gateway: text('gateway').$type<PayoutGatewayName>(),
    /** The gateway's own id of the payout (RazorpayX `pout_...`), once it told us. */
    gatewayPayoutId: text('gateway_payout_id'),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Scored when requested (docs/decisions/fraud-signals.md): sum of the fired signals' weights. */
    riskScore: integer('risk_score').notNull().default(0),
    /** The fired signals' catalogue keys. */
    riskReasons: jsonb('risk_reasons').$type<RiskReasonKey[]>().notNull().default([]),
    /** 2 when the amount was above the second-approval threshold when requested. */
    approvalsRequired: integer('approvals_required').notNull().default(1),
    /** The first of two approvals; the second, by someone else, dispatches. */
    firstApproverId: bigint('first_approver_id', { mode: 'number' }).references(() => users.id),
    firstApprovedAt: timestamp('first_approved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The payout's furthest status in the gateway's life cycle as Kamai learned it (RazorpayX's words;
     * masterpay's success is `processed`): reports that come before it change nothing
     * (docs/decisions/razorpayx-payouts.md).
     */
    gatewayStatus: text('gateway_status'),
    /**
     * What the payout was sent with, fixed at its first dispatch: RazorpayX `reference_id` and
     * `X-Payout-Idempotency`, the installation's prefix and a random part, so another installation on
     * the same account, or this one restored from an older backup, never sends the same ones.
     */
    payoutReference: text('payout_reference'),
    payoutIdempotencyKey: text('payout_idempotency_key'),
    payoutReferencedAt: timestamp('payout_referenced_at', { withTimezone: true }),
    /** RazorpayX's own fees and tax on the payout (paise, charged to the business account), as it reported them. */
    gatewayFees: bigint('gateway_fees', { mode: 'bigint' }),
    gatewayTax: bigint('gateway_tax', { mode: 'bigint' }),
  },
  (t) => [
    uniqueIndex('withdrawals_payout_reference_idx').on(t.payoutReference),
    index('withdrawals_payout_referenced_idx').on(t.payoutReferencedAt),
    index('withdrawals_risk_idx').on(t.riskScore, t.id),
    index('withdrawals_user_idx').on(t.userId, t.id.desc()),
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt),
    index('withdrawals_created_idx').on(t.createdAt, t.id),
    index('withdrawals_state_idx').on(t.state, t.id),
    index('withdrawals_account_idx').on(t.accountId),
    uniqueIndex('withdrawals_gateway_payout_idx')
      .on(t.gateway, t.gatewayPayoutId)
      .where(sql`${t.gatewayPayoutId} is not null`),
    index('withdrawals_account_no_idx').on(t.accountNo),
    check('withdrawals_amount_positive', sql`${t.amount} > 0`),
    check('withdrawals_fee_below_amount', sql`${t.fee} >= 0 and ${t.fee} < ${t.amount}`),
    check(
      'withdrawals_state_known',
      sql`${t.state} in ('pending', 'approved', 'processing', 'paid', 'failed', 'rejected', 'cancelled', 'reversed')`,
    ),
  ],
);

/** Every state a withdrawal has been in, with its reason and who caused it (null: the gateway or the system). */
export const withdrawalHistory = pgTable(
  'withdrawal_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    fromState: text('from_state').$type<WithdrawalState>(),
    toState: text('to_state').$type<WithdrawalState>().notNull(),
    reason: text('reason'),
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('withdrawal_history_withdrawal_idx').on(t.withdrawalId, t.id),
    // The dashboard's trends count the states entered per day.
    index('withdrawal_history_created_idx').on(t.createdAt, t.toState),
  ],
);

/**
 * Money that came back for a deleted account (a paid payout the bank reversed, a hold returned): it
 * is posted to the `platform_unclaimed` account, never to the frozen wallet, and waits here for an
 * operator, who marks it handled with a note (docs/decisions/unclaimed-money.md).
 */
export const unclaimedMoney = pgTable(
  'unclaimed_money',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    /** The posting that moved the money into `platform_unclaimed`. */
    postingId: bigint('posting_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => postings.id),
    amount: bigint('amount', { mode: 'bigint' }).notNull(),
    /** `reversal`: the bank returned a paid payout; `refund`: a hold that went back. */
    kind: text('kind').$type<'reversal' | 'refund'>().notNull(),
    /** The gateway's words about the return, when it gave any. */
    reason: text('reason'),
    handledBy: bigint('handled_by', { mode: 'number' }).references(() => users.id),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('unclaimed_money_open_idx').on(t.id).where(sql`${t.handledAt} is null`),
    index('unclaimed_money_withdrawal_idx').on(t.withdrawalId),
    check('unclaimed_money_kind', sql`${t.kind} in ('reversal', 'refund')`),
    check('unclaimed_money_amount_positive', sql`${t.amount} > 0`),
  ],
);
