// The public face of the payout-accounts feature (a user's bank and UPI accounts).
export { maskAccountNo } from './payout-accounts.mask';
export { findOwnAccount } from './payout-accounts.queries';
export { register } from './payout-accounts.routes';
