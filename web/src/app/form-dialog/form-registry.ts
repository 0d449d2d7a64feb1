import { DIALOG_WIDTH_PX } from '@kamai/contract/constants';
import { type AnyFormModule, anyForm, type FormName } from '../../lib/form-dialog';

/** The part of a form known before its module loads: the title shown at once and the dialog width. */
export interface FormEntry {
  titleKey:
    | 'auth:titles.welcome'
    | 'auth:titles.resetPassword'
    | 'auth:titles.changePassword'
    | 'linked:rebind.title'
    | 'payoutAccounts:account.addTitle'
    | 'withdrawals:withdraw.title'
    | 'tasks:proof.title'
    | 'users:deleteAccount.title';
  /** Dialog width in CSS pixels. */
  size: number;
  load: () => Promise<AnyFormModule>;
}

/** Each form's module (rules, fields, post action) loads on its first show, so no form weighs on the first page. */
export const formRegistry: Record<FormName, FormEntry> = {
  login: {
    titleKey: 'auth:titles.welcome',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/auth/forms/login-form').then((m) => anyForm(m.loginForm)),
  },
  register: {
    titleKey: 'auth:titles.welcome',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/auth/forms/register-form').then((m) => anyForm(m.registerForm)),
  },
  resetPassword: {
    titleKey: 'auth:titles.resetPassword',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/auth/forms/reset-password-form').then((m) => anyForm(m.resetPasswordForm)),
  },
  changePassword: {
    titleKey: 'auth:titles.changePassword',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/auth/forms/change-password-form').then((m) => anyForm(m.changePasswordForm)),
  },
  rebind: {
    titleKey: 'linked:rebind.title',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/linked-accounts/forms/rebind-form').then((m) => anyForm(m.rebindForm)),
  },
  payoutAccount: {
    titleKey: 'payoutAccounts:account.addTitle',
    size: DIALOG_WIDTH_PX,
    load: () =>
      import('../../features/payout-accounts/forms/payout-account-form').then((m) => anyForm(m.payoutAccountForm)),
  },
  withdraw: {
    titleKey: 'withdrawals:withdraw.title',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/withdrawals/forms/withdraw-form').then((m) => anyForm(m.withdrawForm)),
  },
  taskProof: {
    titleKey: 'tasks:proof.title',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/tasks/forms/proof-form').then((m) => anyForm(m.proofForm)),
  },
  deleteAccount: {
    titleKey: 'users:deleteAccount.title',
    size: DIALOG_WIDTH_PX,
    load: () => import('../../features/account/forms/delete-account-form').then((m) => anyForm(m.deleteAccountForm)),
  },
};
