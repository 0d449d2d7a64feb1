export { WithdrawalsPage } from './pages/withdrawals-page';
