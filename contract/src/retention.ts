/**
 * What stays of an account after it is deleted, item by item, and the tables that keep it
 * (docs/decisions/account-deletion.md, "Kept, and why"). Every other row naming the user is erased in
 * the deletion's transaction. The Privacy policy's list of what is kept is written from these items,
 * in this order, and the erasure walk (server/test/erasure-walk.test.ts) fails on a deleted user's row
 * in any table not named here.
 */
export const KEPT_AFTER_DELETION = [
  {
    /** The wallet's movements and the records each one rests on (rewards, rebates, credits, linked hours). */
    id: 'ledger',
    tables: [
      'users',
      'accounts',
      'rebates',
      'task_completions',
      'task_proofs',
      'credit_requests',
      'linked_accounts',
      'linked_account_events',
    ],
  },
  /** Withdrawals: amounts, dates and states, the account number cut to its last four digits. */
  { id: 'withdrawals', tables: ['withdrawals', 'withdrawal_history', 'payout_callbacks', 'payout_mismatches'] },
  /** What operators did, by user id only. */
  { id: 'audit', tables: ['audit_log'] },
  /** A keyed hash of the phone or e-mail (no user id: the hash alone). */
  { id: 'identity_hash', tables: ['identity_ledger'] },
  /** A bank check's last four digits, keyed hash and fee reference. */
  { id: 'payout_checks', tables: ['account_validations', 'account_validation_lookups'] },
] as const;

export type KeptItemId = (typeof KEPT_AFTER_DELETION)[number]['id'];
