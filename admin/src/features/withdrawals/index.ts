// What other features use of withdrawals.
export { UserWithdrawals } from './components/user-withdrawals';
