/**
 * The database schema, one file per owner under `tables/` (docs/decisions/table-owners.md): a table is
 * read and written only by its owner's `*.queries.ts` (`tools/table-owners.mjs`, part of `npm run lint`).
 * This index is what drizzle-kit reads (`drizzle.config.ts`) and what the database client is typed by.
 */
export * from './tables/auth';
export * from './tables/complaints';
export * from './tables/credits';
export * from './tables/fraud';
export * from './tables/intro';
export * from './tables/linked-accounts';
export * from './tables/notices';
export * from './tables/otp';
export * from './tables/payout-accounts';
export * from './tables/payouts';
export * from './tables/platform';
export * from './tables/push';
export * from './tables/referrals';
export * from './tables/survey';
export * from './tables/tasks';
export * from './tables/uploads';
export * from './tables/users';
export * from './tables/wallet';
export * from './tables/withdrawals';
