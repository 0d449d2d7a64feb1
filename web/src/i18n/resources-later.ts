import auth from './locales/en_US/auth.json';
import complaints from './locales/en_US/complaints.json';
import intro from './locales/en_US/intro.json';
import linked from './locales/en_US/linked.json';
import notices from './locales/en_US/notices.json';
import payoutAccounts from './locales/en_US/payoutAccounts.json';
import referrals from './locales/en_US/referrals.json';
import survey from './locales/en_US/survey.json';
import wallet from './locales/en_US/wallet.json';
import withdrawals from './locales/en_US/withdrawals.json';

/** English namespaces Home's first screen does not use: one lazy chunk, loaded by `initI18n` (index.ts). */
export const enLater = {
  auth,
  complaints,
  intro,
  linked,
  notices,
  payoutAccounts,
  referrals,
  survey,
  wallet,
  withdrawals,
};
