// The public face of the wallet feature (the double-entry ledger and each user's wallet account).
export { checkLedger, lockWallet, post } from './wallet.ledger';
export {
  findUserAccountId,
  insertWallet,
  listEntries,
  userLedgerEntries,
  WALLET,
  walletBalance,
} from './wallet.queries';
export { register } from './wallet.routes';
export { checkMoney, checkRules, type LedgerRule, type LedgerRuleViolation } from './wallet.rules';
