import { type RegisterBody, registerBody } from '@kamai/contract';
import { PASSWORD_MAX, PASSWORD_MIN } from '@kamai/contract/constants';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { pendingInvite } from '../../../lib/pending-invite';
import { CodeField, SendCodeButton, useOtpChannels, useSendCodeHint } from '../../otp';
import { useRegister } from '../api/register';
import { AuthTabs } from '../components/auth-tabs';
import { UsernameField } from '../components/username-field';

type Values = RegisterBody;
type Parsed = z.output<typeof registerBody>;

/**
 * The contract's rules plus a required invite code: registration is by invitation (the server's
 * INVITE_CODE_REQUIRED, on by default), so a missing code is a warning in the form, not a server error.
 */
const schema = registerBody.superRefine((value, ctx) => {
  if (!value.inviteCode) ctx.addIssue({ code: 'custom', message: 'enter_invite_code', path: ['inviteCode'] });
});

function RegisterFields({ form, show }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation('auth');
  const username = form.watch('username');
  const sendCodeHint = useSendCodeHint(username ?? '');
  const channels = useOtpChannels();
  return (
    <>
      <AuthTabs active="register" show={show} username={username} />
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
        label={t('fields.password')}
        hint={t('hints.password', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        type="password"
        autoComplete="new-password"
      />
      <TextField
        control={form.control}
        name="password2"
        label={t('fields.password2')}
        type="password"
        autoComplete="new-password"
      />
      <TextField control={form.control} name="inviteCode" label={t('fields.inviteCode')} autoComplete="off" />
    </>
  );
}

export const registerForm: FormModule<Values, Parsed> = {
  schema,
  // A getter: the invite code of an invite link opened in this tab fills in whenever the form shows.
  get defaultValues() {
    return { username: '', verifyCode: '', password: '', password2: '', inviteCode: pendingInvite() ?? '' };
  },
  Fields: RegisterFields,
  usePost: () => {
    const register = useRegister();
    return async (values) => ({ message: (await register.mutateAsync(values)).message });
  },
};
