import { WITHDRAWAL_STATE_LABELS, type WithdrawalState } from '@kamai/contract';
import { Tag } from 'antd';
import { catalogueText } from '../../../i18n';

const COLORS: Record<WithdrawalState, string> = {
  pending: 'gold',
  approved: 'blue',
  processing: 'cyan',
  paid: 'green',
  failed: 'red',
  rejected: 'volcano',
  cancelled: 'default',
  reversed: 'magenta',
};

/** A withdrawal state in the catalogue's words. */
export function stateLabel(state: WithdrawalState): string {
  return catalogueText(WITHDRAWAL_STATE_LABELS[state]);
}

export function StateTag({ state }: { state: WithdrawalState }) {
  return <Tag color={COLORS[state]}>{stateLabel(state)}</Tag>;
}
