import type { Messages } from '@kamai/contract';
import auth from './locales/en_US/auth.json';
import common from './locales/en_US/common.json';
import intro from './locales/en_US/intro.json';
import linked from './locales/en_US/linked.json';
import notices from './locales/en_US/notices.json';
import payouts from './locales/en_US/payouts.json';
import referrals from './locales/en_US/referrals.json';
import survey from './locales/en_US/survey.json';
import tasks from './locales/en_US/tasks.json';
import users from './locales/en_US/users.json';
import wallet from './locales/en_US/wallet.json';

/** English ships in the first bundle; it is also the shape every other locale must match. */
export const en = { common, auth, tasks, users, wallet, referrals, survey, intro, linked, notices, payouts };

/** All namespaces, including the contract's catalogue (`errors`), which loads with the forms (see errors.ts). */
export type Resources = typeof en & { errors: Messages };
