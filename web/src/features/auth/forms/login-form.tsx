import { type LoginBody, loginBody } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { TextField } from '../../../components/text-field';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { useLogin } from '../api/login';
import { AuthTabs } from '../components/auth-tabs';
import { UsernameField } from '../components/username-field';

type Parsed = z.output<typeof loginBody>;

function LoginFields({ form, show }: FormFieldsProps<LoginBody, Parsed>) {
  const { t } = useTranslation('auth');
  const username = form.watch('username');
  return (
    <>
      <AuthTabs active="login" show={show} username={username} />
      <UsernameField form={form} name="username" autoComplete="username" />
      <TextField
        control={form.control}
        name="password"
        label={t('fields.password')}
        type="password"
        autoComplete="current-password"
      />
      <button type="button" className="link-button primary" onClick={() => show('resetPassword', { username })}>
        {t('forgotPassword')}
      </button>
    </>
  );
}

export const loginForm: FormModule<LoginBody, Parsed> = {
  schema: loginBody,
  defaultValues: { username: '', password: '' },
  Fields: LoginFields,
  usePost: () => {
    const login = useLogin();
    return async (values) => ({ message: (await login.mutateAsync(values)).message });
  },
};
