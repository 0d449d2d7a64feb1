// What other features use of withdrawals.

export { StateTag, stateLabel } from './components/state-tag';
export { UserWithdrawals } from './components/user-withdrawals';
