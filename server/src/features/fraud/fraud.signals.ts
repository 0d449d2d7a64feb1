import {
  RISK_REASON_KEYS,
  RISK_SCORE_MAX,
  RISK_SIGNALS,
  type RiskSettingsStored,
  type RiskSignal,
  type WithdrawalRisk,
} from '@kamai/contract';
import type { Tx } from '../../db/client';
import { needsSecondApprover } from '../../platform/four-eyes';
import { type PayoutTarget, type RiskFacts, riskFacts } from './fraud.queries';
import { readRiskSettings } from './fraud.settings';

const HOUR_MS = 3_600_000;

/** Which signals the facts fire under the settings' thresholds. */
export function firedSignals(facts: RiskFacts, settings: RiskSettingsStored, at: Date): Set<RiskSignal> {
  const fired = new Set<RiskSignal>();
  if (facts.sharedAccount) fired.add('shared_payout_account');
  if (facts.inviterDevice) fired.add('same_device_as_inviter');
  if (facts.inviterAddress) fired.add('same_address_as_inviter');
  if (facts.fellowDevice) fired.add('same_device_as_fellow_invitee');
  if (facts.fellowAddress) fired.add('same_address_as_fellow_invitee');
  if (facts.idleInvitees >= settings.idleInvitees) fired.add('idle_invitees');
  if (facts.inviteIncome > 0n && facts.inviteIncome * 10_000n > facts.totalIncome * BigInt(settings.inviteShareBps)) {
    fired.add('invite_reward_balance');
  }
  if (!facts.withdrewBefore && at.getTime() - facts.registeredAt.getTime() < settings.quickWithdrawalHours * HOUR_MS) {
    fired.add('quick_first_withdrawal');
  }
  return fired;
}

/**
 * The score (sum of the fired signals' weights, at most RISK_SCORE_MAX) and the reasons, in signal
 * order. A weight of 0 turns a signal off: it is not listed either.
 */
export function scoreOf(fired: Set<RiskSignal>, weights: RiskSettingsStored['weights']): WithdrawalRisk {
  const signals = RISK_SIGNALS.filter((s) => fired.has(s) && weights[s] > 0);
  const score = signals.reduce((sum, s) => sum + weights[s], 0);
  return { score: Math.min(score, RISK_SCORE_MAX), reasons: signals.map((s) => RISK_REASON_KEYS[s]) };
}

/**
 * A withdrawal's risk and how many approvals it needs, computed in `withdraw/add`'s transaction
 * before the withdrawal is written (so "first withdrawal" means no earlier one).
 */
export async function assessWithdrawal(
  tx: Tx,
  input: { userId: number; amount: bigint; target: PayoutTarget; at: Date },
) {
  const settings = await readRiskSettings(tx);
  const facts = await riskFacts(tx, input.userId, input.target);
  const risk = scoreOf(firedSignals(facts, settings, input.at), settings.weights);
  const approvalsRequired = needsSecondApprover(input.amount, settings.secondApprovalAbovePaise) ? 2 : 1;
  return { risk, approvalsRequired };
}
