import { accountDeleteBody } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { paths } from '../../../config/paths';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { useDeleteAccount } from '../api/account';
import '../account.css';

type Values = z.input<typeof accountDeleteBody>;
type Parsed = z.output<typeof accountDeleteBody>;

function DeleteAccountFields({ form }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation(['users', 'auth']);
  return (
    <>
      <p className="delete-warning">{t('deleteAccount.warning')}</p>
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
  usePost: () => {
    const remove = useDeleteAccount();
    return async ({ password }) => {
      const { message } = await remove.mutateAsync(password);
      // Every session has ended: start afresh on Home, logged out.
      window.location.assign(paths.home);
      return { message };
    };
  },
};
