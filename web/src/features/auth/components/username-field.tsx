import { type OtpChannel, PHONE_COUNTRY_CODE, usernameProblem } from '@kamai/contract/constants';
import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/text-field';
import '../../../i18n/errors';

/** A username typed so far that is (the start of) an e-mail address rather than a phone number. */
const looksLikeEmail = (value: string) => /[@a-z]/i.test(value);

/**
 * The username as Indian apps ask for it: a mobile number by default (number keypad, a fixed +91 in
 * front; spaces and a leading 0 are fine, the contract normalises them), or an e-mail address after
 * "Use e-mail instead" or as soon as a letter is typed. A number or address that cannot be right says so under this field.
 */
export function UsernameField<T extends FieldValues, P>({
  form,
  name,
  autoComplete,
  channels,
}: {
  form: UseFormReturn<T, unknown, P>;
  name: Path<T>;
  autoComplete: 'username' | 'tel-national';
  /** Where codes can go (SIGNUP_CHANNELS): with one channel the field asks for that one only. */
  channels?: readonly OtpChannel[];
}) {
  const { t } = useTranslation(['auth', 'errors']);
  const value = String(form.watch(name) ?? '');
  const [emailMode, setEmailMode] = useState(false);
  // A letter or @ typed (or filled in by the browser) makes it an e-mail address.
  const only = channels?.length === 1 ? channels[0] : undefined;
  const email = only ? only === 'email' : emailMode || looksLikeEmail(value);
  // A number that cannot be right is a field error (red, under this field): said once the user has
  // left the field, not at every digit typed, and on submit by the form's schema like every field.
  const checkOnLeave = () => {
    const problem = value.trim() ? usernameProblem(value) : undefined;
    if (problem) form.setError(name, { type: 'leave', message: problem });
  };
  const error = form.getFieldState(name, form.formState).error;
  // Cleared as soon as the typed value is right again.
  useEffect(() => {
    if (error?.type === 'leave' && !usernameProblem(value)) form.clearErrors(name);
  }, [error?.type, value, form, name]);
  const switchMode = () => {
    setEmailMode(!email);
    form.setValue(name, '' as never);
    form.clearErrors(name);
  };
  return (
    <TextField
      control={form.control}
      name={name}
      label={email ? t('auth:usernameMode.emailLabel') : t('auth:usernameMode.phoneLabel')}
      showLabel
      placeholder={email ? 'name@example.com' : '98765 43210'}
      type={email ? 'email' : 'tel'}
      inputMode={email ? 'email' : 'numeric'}
      autoComplete={email ? 'email' : autoComplete}
      maxLength={email ? 254 : 16}
      prefix={email ? undefined : `+${PHONE_COUNTRY_CODE}`}
      onBlur={checkOnLeave}
      after={
        only ? undefined : (
          <button type="button" className="link-button primary text-13" onClick={switchMode}>
            {email ? t('auth:usernameMode.usePhone') : t('auth:usernameMode.useEmail')}
          </button>
        )
      }
    />
  );
}
