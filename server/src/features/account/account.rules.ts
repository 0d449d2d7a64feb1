import type { LedgerRule } from '../wallet';
import * as q from './account.queries';

/**
 * No credit to a deleted account after its deletion (docs/decisions/ledger-rules.md): the person is
 * gone, so money put there afterwards went to no one (or to whoever still moves it). Even the bank's
 * return of the user's own payout goes to `platform_unclaimed` instead (docs/decisions/unclaimed-money.md).
 */
export const creditAfterDeletionRule: LedgerRule = {
  rule: 'credit_after_deletion',
  async violations(db) {
    return (await q.creditsAfterDeletion(db)).map((c) => ({
      rule: 'credit_after_deletion',
      postingIds: [c.postingId],
      detail: `${c.type} put ${c.amount} paise on the ${c.kind} of user ${c.userId} at ${c.createdAt.toISOString()}, after the account was deleted at ${c.deletedAt.toISOString()}`,
    }));
  },
};
