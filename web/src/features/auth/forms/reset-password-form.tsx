import { type ResetPassBody, resetPassBody } from '@kamai/contract';
import { PASSWORD_MAX, PASSWORD_MIN } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { CodeField, SendCodeButton, useOtpChannels, useSendCodeHint } from '../../otp';
import { useResetPassword } from '../api/reset-password';
import { UsernameField } from '../components/username-field';

type Parsed = z.output<typeof resetPassBody>;

function ResetPasswordFields({ form, show }: FormFieldsProps<ResetPassBody, Parsed>) {
  const { t } = useTranslation('auth');
  const username = form.watch('username');
  const sendCodeHint = useSendCodeHint(username ?? '');
  const channels = useOtpChannels();
  return (
    <>
      <UsernameField form={form} name="username" autoComplete="username" channels={channels} />
      <CodeField
        form={form}
        name="verifyCode"
        label={t('fields.verifyCode')}
        hint={sendCodeHint}
        addon={<SendCodeButton username={username} />}
      />
      <TextField
        control={form.control}
        name="password"
        label={t('fields.newPassword')}
        hint={t('hints.password', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        type="password"
        autoComplete="new-password"
      />
      <TextField
        control={form.control}
        name="password2"
        label={t('fields.newPassword2')}
        type="password"
        autoComplete="new-password"
      />
      <button type="button" className="link-button primary" onClick={() => show('login', { username })}>
        {t('backToLogin')}
      </button>
    </>
  );
}

export const resetPasswordForm: FormModule<ResetPassBody, Parsed> = {
  schema: resetPassBody,
  defaultValues: { username: '', verifyCode: '', password: '', password2: '' },
  Fields: ResetPasswordFields,
  usePost: () => {
    const reset = useResetPassword();
    return async (values) => {
      const { message } = await reset.mutateAsync(values);
      // Every session ended; the user logs in again with the new password.
      return { message, next: { name: 'login', data: { username: values.username } } };
    };
  },
};
