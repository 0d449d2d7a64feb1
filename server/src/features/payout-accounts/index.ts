// The public face of the payout-accounts feature (a user's bank and UPI accounts).

export {
  type AccountValidator,
  createSandboxValidator,
  reportOf,
  type ValidationAnswer,
  type ValidationInput,
} from './account-validation.gateway';
export { namesCompared } from './account-validation.match';
export {
  accountNamesOf,
  eraseValidationsOf,
  fingerprintOf,
  numberHashInput,
  type OtherName,
  ownedFingerprintOf,
  type PayeeCheck,
  type PayeeRead,
  payeeCheckSql,
  payeeFromJson,
  rehashNumbers,
  unhashedValidationsOf,
  type ValidationRow,
  validationsByFingerprints,
  validationsByIds,
  withdrawalAccountOf,
} from './account-validation.queries';
export {
  type AccountValidations,
  createAccountValidations,
  verdictOf,
  verificationOf,
} from './account-validation.service';
export { accountValidationSettings } from './account-validation.settings';
export { maskAccountNo } from './payout-accounts.mask';
export { deleteUserPayoutAccounts, findOwnAccount, payoutAccountsOf } from './payout-accounts.queries';
export { register } from './payout-accounts.routes';
