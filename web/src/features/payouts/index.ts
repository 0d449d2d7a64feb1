export { PayoutMethodsPage } from './pages/payout-methods-page';
export { WithdrawalsPage } from './pages/withdrawals-page';
