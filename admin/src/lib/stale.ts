import { ApiError } from '@kamai/client';
import {
  COMPLAINT_STATE_KEYS,
  type ComplaintState,
  STALE_KEYS,
  type StaleCurrent,
  type StaleKey,
  WITHDRAWAL_STATE_LABELS,
  type WithdrawalState,
} from '@kamai/contract';
import { catalogueText, i18n } from '../i18n';
import { dateTime, phoneNumber } from './format';

/** What a refused queue action found instead (`data.current`), when the refusal is a stale one. */
export function staleOf(error: unknown): { key: StaleKey; current: StaleCurrent } | null {
  if (!(error instanceof ApiError) || !(STALE_KEYS as readonly string[]).includes(error.key)) return null;
  const current = (error.data as { current?: StaleCurrent } | null)?.current;
  return current && typeof current.state === 'string' ? { key: error.key as StaleKey, current } : null;
}

/** The item's state now, in the words its own page uses. */
function stateWord(key: StaleKey, state: string): string {
  const t = i18n.t.bind(i18n);
  switch (key) {
    case 'withdrawal_state_conflict':
      return state in WITHDRAWAL_STATE_LABELS
        ? catalogueText(WITHDRAWAL_STATE_LABELS[state as WithdrawalState])
        : state;
    case 'complaint_already_closed':
    case 'complaint_acknowledged_already':
      return state in COMPLAINT_STATE_KEYS ? catalogueText(COMPLAINT_STATE_KEYS[state as ComplaintState]) : state;
    case 'task_proof_state_conflict':
      return t(`proofs.states.${state}`, { defaultValue: state });
    case 'payout_mismatch_resolved_already':
      return t(state === 'recover' ? 'mismatches.recovered' : 'mismatches.dismissed');
    case 'account_check_decided_already':
      return t(`stale.accountCheck.${state}`, { defaultValue: state });
  }
}

/**
 * "Already decided by +91 98765 43210 at 3 Dec 2026, 2:05 pm: Approved. The list has been refreshed."
 * (no operator: the user, the gateway or the bank decided it).
 */
export function staleText({ key, current }: { key: StaleKey; current: StaleCurrent }): string {
  const vars = { state: stateWord(key, current.state), at: dateTime(current.at) };
  return current.by ? i18n.t('stale.by', { ...vars, by: phoneNumber(current.by) }) : i18n.t('stale.noOperator', vars);
}
