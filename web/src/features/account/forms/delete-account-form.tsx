import { accountDeleteBody, parseRupees } from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { paths } from '../../../config/paths';
import { currentLocale } from '../../../i18n';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { useUserDetail } from '../../users';
import { useDeleteAccount } from '../api/account';
import '../account.css';

type Values = z.input<typeof accountDeleteBody>;
type Parsed = z.output<typeof accountDeleteBody>;

function DeleteAccountFields({ form, show }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation(['users', 'auth']);
  const user = useUserDetail();
  const balance = user.data ? (parseRupees(user.data.balance) ?? 0n) : 0n;
  return (
    <>
      <p className="delete-warning">{t('deleteAccount.warning')}</p>
      {balance > 0n && (
        <div className="stack delete-forfeit radius-10">
          <p className="semibold">{t('deleteForfeit.text', { amount: formatMoney(balance, currentLocale()) })}</p>
          <Button size="small" color="primary" fill="outline" onClick={() => show('withdraw')}>
            {t('deleteForfeit.withdraw')}
          </Button>
        </div>
      )}
      <TextField
        control={form.control}
        name="password"
        label={t('auth:fields.password')}
        hint={t('deleteAccount.passwordHint')}
        type="password"
        autoComplete="current-password"
      />
    </>
  );
}

/** Deleting the account (DPDP Act 2023): the password again; the server refuses while a withdrawal is open. */
export const deleteAccountForm: FormModule<Values, Parsed> = {
  schema: accountDeleteBody,
  defaultValues: { password: '' },
  Fields: DeleteAccountFields,
  confirm: { labelKey: 'users:deleteForfeit.confirm', danger: true },
  usePost: () => {
    const remove = useDeleteAccount();
    return async ({ password }) => {
      const { message } = await remove.mutateAsync(password);
      // Every session has ended: a fresh start, logged out, on the page that says what happened.
      window.location.assign(paths.accountDeleted);
      return { message };
    };
  },
};
