// The public face of the withdrawals feature (requests, review, and their state machine).

export { unclaimedRule } from './unclaimed.admin';
export {
  approvedTo,
  approvedWithoutDispatch,
  fixPayoutReference,
  markDispatched,
  processingDispatchedBefore,
  sentBetween,
  setGatewayFees,
  setGatewayPayoutId,
  setGatewayStatus,
  setReference,
  withdrawalIdByPayout,
  withdrawalIdByReference,
  withdrawalStateCounts,
  withdrawalsByReferenceOrPayout,
} from './withdrawals.payouts.queries';
export {
  countOpenWithdrawals,
  maskUserWithdrawalAccounts,
  paidWithdrawalOf,
  pendingFigure,
  requestedWithdrawalOf,
  withdrawalIdsOf,
  withdrawalRisk,
  withdrawalsOf,
} from './withdrawals.queries';
export { register } from './withdrawals.routes';
export { withdrawalPostingsRule } from './withdrawals.rules';
export { limitSettings } from './withdrawals.settings';
export { changeState, findWithdrawal, lockWithdrawal, type WithdrawalRow } from './withdrawals.state';
