import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    target: text('target').notNull(),
    /** The target's `canonicalIdentity`: the hourly limit counts codes per person, not per spelling. */
    identity: text('identity'),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    index('otp_codes_target_idx').on(t.target, t.createdAt),
    index('otp_codes_identity_idx').on(t.identity, t.createdAt),
  ],
);

/** What the sandbox sender "delivered"; operators read it in the console (docs/design.md "Scope"). */
export const otpOutbox = pgTable(
  'otp_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    target: text('target').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('otp_outbox_created_idx').on(t.createdAt)],
);

/**
 * One delivery attempt of a code or an operator message through one provider (docs/decisions/sms-delivery.md): a
 * failover
 * writes one row per provider tried. Never holds the code or the message text.
 */
export const otpDeliveries = pgTable(
  'otp_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    kind: text('kind', { enum: ['code', 'message'] }).notNull(),
    target: text('target').notNull(),
    provider: text('provider', { enum: ['sandbox', 'smtp', 'msg91', 'twilio'] }).notNull(),
    status: text('status', { enum: ['sent', 'failed', 'delivered', 'undelivered'] }).notNull(),
    providerMessageId: text('provider_message_id'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('otp_deliveries_target_idx').on(t.target, t.id.desc()),
    index('otp_deliveries_message_idx').on(t.provider, t.providerMessageId),
    index('otp_deliveries_created_idx').on(t.createdAt),
  ],
);
