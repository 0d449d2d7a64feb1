import type { LedgerRule, LedgerRuleViolation } from '../wallet';
import * as q from './withdrawals.queries';

const RULE = 'withdrawal_postings_state';

/**
 * Every withdrawal's postings match its state (docs/decisions/ledger-rules.md): pending, approved and
 * processing hold the amount and nothing else; paid moved the hold to platform payouts (amount − fee)
 * and revenue (the fee); failed, rejected and cancelled returned the hold to the wallet; reversed also
 * undid the paid posting into the wallet. Exact amounts, each at most once; a withdrawal posting that
 * names no withdrawal breaks it too.
 */
export const withdrawalPostingsRule: LedgerRule = {
  rule: RULE,
  async violations(db) {
    const byWithdrawal = new Map<number, Awaited<ReturnType<typeof q.withdrawalPostingsOffState>>>();
    for (const row of await q.withdrawalPostingsOffState(db)) {
      const rows = byWithdrawal.get(row.withdrawalId) ?? [];
      rows.push(row);
      byWithdrawal.set(row.withdrawalId, rows);
    }
    const found: LedgerRuleViolation[] = [];
    for (const [id, rows] of byWithdrawal) {
      const first = rows[0];
      if (!first) continue;
      const what = rows
        .filter((r) => r.bad)
        .map((r) => {
          if (r.count !== r.wantCount) return `${r.type} posted ${r.count} times, expected ${r.wantCount}`;
          const m = r.moved;
          const w = r.want;
          return `${r.type} moves wallet ${m.wallet}, hold ${m.hold}, payouts ${m.payouts}, revenue ${m.revenue}, elsewhere ${r.other} paise; expected wallet ${w.wallet}, hold ${w.hold}, payouts ${w.payouts}, revenue ${w.revenue}`;
        });
      found.push({
        rule: RULE,
        postingIds: rows.flatMap((r) => r.postingIds),
        detail: `withdrawal ${id} is ${first.state} (amount ${first.amount}, fee ${first.fee} paise): ${what.join('; ')}`,
      });
    }
    for (const p of await q.withdrawalPostingsWithoutWithdrawal(db)) {
      found.push({
        rule: RULE,
        postingIds: [p.postingId],
        detail: `${p.type} names no withdrawal (ref ${p.ref ?? 'none'})`,
      });
    }
    return found;
  },
};
