import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './users';

/**
 * Where a registration or a login came from (docs/decisions/fraud-signals.md): the address as the app sees it (behind
 * TRUST_PROXY, the forwarded one), its comparison key (IPv4 as is, IPv6 by /64), the User-Agent, and
 * the device id the web app keeps in localStorage (null when absent or malformed).
 */
export const clientSignals = pgTable(
  'client_signals',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['register', 'login'] }).notNull(),
    ip: text('ip').notNull(),
    addressKey: text('address_key').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    deviceId: text('device_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('client_signals_user_idx').on(t.userId, t.kind),
    index('client_signals_device_idx').on(t.deviceId),
    index('client_signals_address_idx').on(t.addressKey),
  ],
);
