import {
  ACCOUNT_VALIDATION_DEFAULTS,
  type IntroData,
  REBATE_HOLD_DAYS_DEFAULT,
  type RebateSettings,
  RISK_DEFAULTS,
} from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { settings } from '../db/schema';

/** Operator settings and the values used when a row is missing (the `tasks` migration seeds them). */
export const SETTING_DEFAULTS = {
  rebate: { level1Bps: 1000, level2Bps: 500, holdDays: REBATE_HOLD_DAYS_DEFAULT } as RebateSettings,
  intro: {
    videoUrl: null,
    videoSeconds: null,
    // No figures until an operator sets them: a fresh install claims no users and no countries.
    userCount: null,
    countryCount: null,
    countries: [],
  } as IntroData,
  /** Linked accounts: paise paid per hour online (a JSON number; ₹10,000 at most fits easily). */
  linked: { hourlyRatePaise: 200 },
  /** Paise as JSON numbers: ₹100 minimum, ₹50,000 maximum, 3 requests and ₹1,00,000 a day. */
  withdrawal: {
    minPaise: 10_000,
    maxPaise: 5_000_000,
    dailyCount: 3,
    dailyTotalPaise: 10_000_000,
    /** Taken from each withdrawal when paid (docs/decisions/withdrawals.md); none by default. */
    feePaise: 0,
    /** The payout time the withdraw dialog promises. */
    payoutHours: 24,
  },
  /**
   * Fraud signal weights, four-eyes thresholds and the qualified-invite rule (docs/decisions/fraud-signals.md,
   * four-eyes-approvals.md).
   */
  risk: RISK_DEFAULTS,
  /** Payout account checks: per-user daily limit, the fee posted per check, the name-match threshold. */
  accountValidation: ACCOUNT_VALIDATION_DEFAULTS,
};
export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type SettingValue<K extends SettingKey> = (typeof SETTING_DEFAULTS)[K];

/** The stored value over its defaults; `forUpdate` locks the row for a read-modify-write. */
export async function getSetting<K extends SettingKey>(
  db: Executor,
  key: K,
  options: { forUpdate?: boolean } = {},
): Promise<SettingValue<K>> {
  const query = db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return settingOver(key, row?.value);
}

/** A stored value (or none) over its defaults: what `getSetting` answers, for a value read by another query. */
export function settingOver<K extends SettingKey>(key: K, stored: unknown): SettingValue<K> {
  return { ...SETTING_DEFAULTS[key], ...((stored ?? {}) as Partial<SettingValue<K>>) };
}

export async function putSetting<K extends SettingKey>(db: Executor, key: K, value: SettingValue<K>) {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

/** Stores `value` under `key` unless a value is already there; answers the stored one either way. */
export async function putSettingOnce<T>(db: Executor, key: string, value: T): Promise<T> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing({ target: settings.key });
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return (row?.value ?? value) as T;
}

/** The stored row of a setting outside SETTING_DEFAULTS (a page, `page:<slug>`), locked on request. */
export async function readSettingRow(db: Executor, key: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select({ value: settings.value, updatedAt: settings.updatedAt })
    .from(settings)
    .where(eq(settings.key, key))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/** Stores a setting outside SETTING_DEFAULTS, stamped `at`. */
export async function writeSettingRow(db: Executor, key: string, value: unknown, at: Date) {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
}

/** Whether the introduction has a video: an SQL expression for a feature's query (task/list). */
export function introHasVideo() {
  return sql<boolean>`exists (select 1 from ${settings} where ${settings.key} = 'intro' and coalesce(${settings.value}->>'videoUrl', '') <> '')`;
}
