import { BUSINESS_UTC_OFFSET_MINUTES } from '@kamai/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `YYYY-MM-DD` of India's calendar day a timestamp falls on, in SQL, for grouping by day: the same fixed
 * offset as the contract's `businessDayOf` (India keeps no daylight saving), whatever the session's time zone.
 */
export function businessDaySql(column: AnyPgColumn): SQL<string> {
  const minutes = sql.raw(String(BUSINESS_UTC_OFFSET_MINUTES));
  return sql<string>`to_char(${column} at time zone 'UTC' + make_interval(mins => ${minutes}), 'YYYY-MM-DD')`;
}
