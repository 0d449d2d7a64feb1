export { payoutAccountsKey, usePayoutAccounts } from './api/payout-accounts';
export { AccountLabel } from './components/account-label';
export { PayoutMethodsPage } from './pages/payout-methods-page';
