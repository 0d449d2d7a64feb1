export { payoutAccountsKey, usePayoutAccounts } from './api/payout-accounts';
export { AccountCheck, PayingTo } from './components/account-check';
export { AccountLabel } from './components/account-label';
export { PayoutMethodsPage } from './pages/payout-methods-page';
