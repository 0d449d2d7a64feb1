import type { PayoutGatewayName, WithdrawalState } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';
import { withdrawals } from './withdrawals';

/**
 * The sandbox payout gateway's own records (what a real gateway keeps on its side): one payout per
 * order number, however often it is dispatched, with the outcome it will report.
 */
export const sandboxPayouts = pgTable('sandbox_payouts', {
  orderNo: text('order_no').primaryKey(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  account: jsonb('account').$type<Record<string, string>>().notNull(),
  notifyUrl: text('notify_url').notNull(),
  status: text('status').$type<'success' | 'failed'>().notNull(),
  reference: text('reference'),
  reason: text('reason'),
  dispatchCount: integer('dispatch_count').notNull().default(1),
  createdAt: createdAt(),
  notifiedAt: timestamp('notified_at', { withTimezone: true }),
});

/**
 * Every signed gateway callback we accepted (masterpay callbacks, RazorpayX webhooks, RazorpayX
 * payouts fetched by reconciliation), once per `event_key` (RazorpayX: payout id + status, as their
 * docs advise): the evidence a payout mismatch shows, and how a duplicate delivery is recognised.
 */
export const payoutCallbacks = pgTable(
  'payout_callbacks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    withdrawalId: bigint('withdrawal_id', { mode: 'number' })
      .notNull()
      .references(() => withdrawals.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    eventKey: text('event_key').notNull().unique(),
    status: text('status').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** Whether it changed the withdrawal's state (the one a later contradiction is shown against). */
    applied: boolean('applied').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('payout_callbacks_withdrawal_idx').on(t.withdrawalId, t.id)],
);

/**
 * A signed callback that contradicts a withdrawal's final state (failed then success, success then
 * failed, a success of another amount or bank reference, processed after reversed). Opened once per
 * `dedupe_key`; an operator resolves it by recovering the amount from the wallet or dismissing it.
 */
export const payoutMismatches = pgTable(
  'payout_mismatches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null only for a payout the gateway made that no withdrawal of Kamai's has (found by reconciliation). */
    withdrawalId: bigint('withdrawal_id', { mode: 'number' }).references(() => withdrawals.id),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    dedupeKey: text('dedupe_key').notNull().unique(),
    /** The withdrawal's state when the callback came (null: no withdrawal). */
    state: text('state').$type<WithdrawalState>(),
    callbackStatus: text('callback_status').notNull(),
    callbackAmount: bigint('callback_amount', { mode: 'bigint' }),
    callbackReference: text('callback_reference'),
    settledCallbackId: bigint('settled_callback_id', { mode: 'number' }).references(() => payoutCallbacks.id),
    /** The contradicting report; null for a payout no withdrawal has, and a withdrawal the gateway has no payout for. */
    callbackId: bigint('callback_id', { mode: 'number' }).references(() => payoutCallbacks.id),
    /** `callback` (a report contradicting the state) or what the daily reconciliation found (PAYOUT_MISMATCH_KINDS). */
    kind: text('kind').notNull().default('callback'),
    /** The gateway's payout id, when there is one. */
    gatewayPayoutId: text('gateway_payout_id'),
    /** What Kamai holds and what the gateway's record says, field by field, for the operator. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    /** The reconciliation run that found it. */
    reconciliationId: bigint('reconciliation_id', { mode: 'number' }).references(() => payoutReconciliations.id),
    resolution: text('resolution').$type<'recover' | 'dismiss'>(),
    resolutionReason: text('resolution_reason'),
    resolvedBy: bigint('resolved_by', { mode: 'number' }).references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_mismatches_withdrawal_idx').on(t.withdrawalId),
    index('payout_mismatches_open_idx').on(t.id).where(sql`${t.resolvedAt} is null`),
    index('payout_mismatches_created_idx').on(t.createdAt),
  ],
);

/**
 * One run of the daily reconciliation against RazorpayX's record (docs/decisions/razorpayx-payouts.md):
 * the India calendar day it read, who started it (null: the job), what it fetched and found.
 */
export const payoutReconciliations = pgTable(
  'payout_reconciliations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    /** The India calendar day, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    startedBy: bigint('started_by', { mode: 'number' }).references(() => users.id),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** `running`, `done` or `failed` (then `error` says why). */
    status: text('status').notNull().default('running'),
    /** Counts: fetched, pages, ours, others, matched, settled, rate limited, and each kind of mismatch. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
  },
  (t) => [index('payout_reconciliations_started_idx').on(t.id.desc())],
);

/**
 * A correctly signed gateway webhook that Kamai did not act on, with the reason (a payout made in the
 * gateway's dashboard, a report for a withdrawal never dispatched, a body of an unexpected shape, …).
 * Answered 2xx all the same: a gateway disables a webhook that keeps failing
 * (docs/decisions/razorpayx-payouts.md). Operators read them in the database (docs/operations.md).
 */
export const payoutWebhooksIgnored = pgTable(
  'payout_webhooks_ignored',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    gateway: text('gateway').$type<PayoutGatewayName>().notNull(),
    event: text('event'),
    payoutId: text('payout_id'),
    referenceId: text('reference_id'),
    reason: text('reason').notNull(),
    /** The parsed body (or, when it is not JSON, its size only). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('payout_webhooks_ignored_created_idx').on(t.createdAt)],
);
