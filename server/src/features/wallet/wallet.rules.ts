import { formatRupees, LEDGER_VIOLATIONS_SHOWN, type LedgerCheck, type LedgerViolation } from '@kamai/contract';
import type { Executor } from '../../db/client';
import { checkLedger } from './wallet.ledger';
import * as q from './wallet.queries';

/** One broken business rule of money: the postings involved (ids as text) and the evidence in words. */
export interface LedgerRuleViolation {
  rule: string;
  postingIds: string[];
  detail: string;
}

/**
 * A business rule of money the ledger check runs beside its invariants (docs/decisions/ledger-rules.md):
 * postings that balance and still should not exist. A feature that owns the rule supplies it (it reads
 * the feature's own tables); `app.ts` composes the list, so the wallet imports none of them.
 */
export interface LedgerRule {
  rule: string;
  violations(db: Executor): Promise<LedgerRuleViolation[]>;
}

/**
 * Runs every rule, in order, and answers each one's count (a rule with none is listed with 0) and the
 * first LEDGER_VIOLATIONS_SHOWN violations. A rule's violation may name another rule (one query checking
 * two rules): it is counted under the name it gives.
 */
export async function checkRules(db: Executor, rules: readonly LedgerRule[]) {
  const counts = new Map<string, number>(rules.map((r) => [r.rule, 0]));
  const found: LedgerRuleViolation[] = [];
  for (const rule of rules) {
    for (const violation of await rule.violations(db)) {
      counts.set(violation.rule, (counts.get(violation.rule) ?? 0) + 1);
      found.push(violation);
    }
  }
  return { rules: [...counts].map(([rule, violations]) => ({ rule, violations })), violations: found };
}

/** The violations with their postings' entries, as the console shows them. */
async function withPostings(db: Executor, violations: LedgerRuleViolation[]): Promise<LedgerViolation[]> {
  const ids = [...new Set(violations.flatMap((v) => v.postingIds))].map(Number).filter(Number.isSafeInteger);
  const byId = new Map<string, LedgerViolation['postings'][number]>();
  for (const row of await q.postingsWithEntries(db, ids)) {
    const key = String(row.id);
    let one = byId.get(key);
    if (!one) {
      one = {
        id: key,
        type: row.type,
        idempotencyKey: row.idempotencyKey,
        createdAt: row.createdAt.toISOString(),
        entries: [],
      };
      byId.set(key, one);
    }
    one.entries.push({
      accountId: row.accountId,
      userId: row.userId,
      kind: row.kind,
      amount: formatRupees(row.amount),
    });
  }
  return violations.map((v) => ({
    ...v,
    postings: v.postingIds.flatMap((id) => {
      const one = byId.get(id);
      return one ? [one] : [];
    }),
  }));
}

/**
 * The whole check: the invariants (`checkLedger`) and the business rules. What `admin/ledger/check`,
 * the dashboard and `/metrics` answer; `ok` only when both are clean.
 */
export async function checkMoney(db: Executor, rules: readonly LedgerRule[]): Promise<LedgerCheck> {
  const invariants = await checkLedger(db);
  const checked = await checkRules(db, rules);
  return {
    ok: invariants.ok && checked.violations.length === 0,
    problems: invariants.problems,
    rules: checked.rules,
    violations: await withPostings(db, checked.violations.slice(0, LEDGER_VIOLATIONS_SHOWN)),
  };
}
