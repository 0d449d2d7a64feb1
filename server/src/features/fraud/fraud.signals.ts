import { RISK_REASON_KEYS, RISK_SCORE_MAX, RISK_SIGNALS } from '@kamai/contract';

/**
 * A withdrawal's risk is scored by the database, in `withdraw_request`'s statement under the wallet's
 * lock (db/functions: `withdrawal_risk_facts` gathers the facts, `withdrawal_risk` fires the signals
 * under the `risk` settings and sums their weights; docs/decisions/fraud-signals.md and withdrawals.md). This is
 * what it takes from the contract, so the catalogue stays in one place: each signal with its reason's
 * catalogue key, in signal order, and the highest score.
 */
export const RISK_CATALOGUE = {
  riskCatalogue: RISK_SIGNALS.map((signal) => [signal, RISK_REASON_KEYS[signal]] as const),
  riskScoreMax: RISK_SCORE_MAX,
};
