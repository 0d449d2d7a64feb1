import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { accountValidations, payoutMismatches, taskProofs, withdrawals } from '../../db/schema';

type Row = Record<string, unknown>;

/**
 * What waits on four lists of work, in one statement of scalar subqueries; each count reads the index
 * its list reads (withdrawals_state_idx, account_validations_queue_idx, task_proofs_state_idx, the
 * partial payout_mismatches_open_idx), so the console can ask every few seconds.
 */
export async function waitingCounts(db: Executor) {
  const result = await db.execute(sql`select
    (select count(*) from ${withdrawals} where ${withdrawals.state} = 'pending')::int as withdrawals,
    (select count(*) from ${accountValidations}
      where ${accountValidations.status} = 'pending' and ${accountValidations.reviewState} = 'queued')::int as account_checks,
    (select count(*) from ${taskProofs} where ${taskProofs.state} = 'pending')::int as proofs,
    (select count(*) from ${payoutMismatches} where ${payoutMismatches.resolvedAt} is null)::int as mismatches`);
  const row = (result as unknown as { rows: Row[] }).rows[0] ?? {};
  return {
    withdrawals: Number(row.withdrawals ?? 0),
    accountChecks: Number(row.account_checks ?? 0),
    proofs: Number(row.proofs ?? 0),
    mismatches: Number(row.mismatches ?? 0),
  };
}
