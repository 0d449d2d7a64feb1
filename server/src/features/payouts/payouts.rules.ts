import type { LedgerRule } from '../wallet';
import * as q from './payouts.queries';
import { PAID_STATUSES, RETURNED_STATUSES } from './payouts.service';

const RULE = 'recovery_without_paid_and_returned';

/**
 * No recovery posting unless the gateway confirmed the payout paid and not returned
 * (docs/decisions/ledger-rules.md, payout-mismatches.md): a `payout_recovery` takes money back from a
 * wallet, so it must name a withdrawal whose amount went back to that wallet (failed or reversed), rest
 * on a mismatch an operator resolved "recover" whose signed report says the payout was paid (of its
 * payout amount) with no later report of the bank returning it, and move exactly what was paid:
 * the amount from the user's wallet, amount − fee to platform payouts, the fee to platform revenue.
 */
export const recoveryRule: LedgerRule = {
  rule: RULE,
  async violations(db) {
    const found = [];
    for (const p of await q.recoveryPostings(db, PAID_STATUSES, RETURNED_STATUSES)) {
      const w = p.withdrawal;
      const problems: string[] = [];
      if (!w) problems.push(`names no withdrawal (ref ${p.refId ?? 'none'})`);
      else {
        if (w.state !== 'failed' && w.state !== 'reversed') {
          problems.push(`withdrawal ${w.id} is ${w.state}: its amount never went back to the wallet`);
        }
        if (!p.confirmed) {
          problems.push(
            `withdrawal ${w.id} has no mismatch resolved "recover" on a signed report that it was paid and not returned since`,
          );
        }
        if (p.wallet !== -w.amount || p.payouts !== w.amount - w.fee || p.revenue !== w.fee || p.other !== 0n) {
          problems.push(
            `moves wallet ${p.wallet}, payouts ${p.payouts}, revenue ${p.revenue}, elsewhere ${p.other} paise; withdrawal ${w.id} expects wallet ${-w.amount}, payouts ${w.amount - w.fee}, revenue ${w.fee}`,
          );
        }
      }
      if (problems.length > 0)
        found.push({ rule: RULE, postingIds: [p.postingId], detail: `recovery ${problems.join('; ')}` });
    }
    return found;
  },
};
