import { type EditPasswordBody, editPasswordBody } from '@kamai/contract';
import { PASSWORD_MAX, PASSWORD_MIN } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { useChangePassword } from '../api/change-password';

type Parsed = z.output<typeof editPasswordBody>;

function ChangePasswordFields({ form }: FormFieldsProps<EditPasswordBody, Parsed>) {
  const { t } = useTranslation('auth');
  return (
    <>
      <TextField
        control={form.control}
        name="oldPassword"
        label={t('fields.oldPassword')}
        type="password"
        showLabel
        autoComplete="current-password"
      />
      <TextField
        control={form.control}
        name="password"
        label={t('fields.newPassword')}
        hint={t('hints.password', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        type="password"
        showLabel
        autoComplete="new-password"
      />
      <TextField
        control={form.control}
        name="password2"
        label={t('fields.newPassword2')}
        type="password"
        showLabel
        autoComplete="new-password"
      />
    </>
  );
}

export const changePasswordForm: FormModule<EditPasswordBody, Parsed> = {
  schema: editPasswordBody,
  defaultValues: { oldPassword: '', password: '', password2: '' },
  Fields: ChangePasswordFields,
  usePost: () => {
    const change = useChangePassword();
    return async (values) => ({ message: (await change.mutateAsync(values)).message });
  },
};
