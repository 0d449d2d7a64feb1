import { OTP_LENGTH } from '@kamai/contract/constants';
import { type ReactNode, useEffect } from 'react';
import { type FieldValues, type Path, type PathValue, type UseFormReturn, useFormState } from 'react-hook-form';
import { TextField } from '../../../components/text-field';
import { receiveSmsCode } from '../web-otp';

/**
 * The one-time code input of a form: a numeric field the browser may fill (`one-time-code`: iOS offers
 * the code of the SMS above the keyboard), and, where the browser has WebOTP (Chrome on Android), the
 * code of the SMS filled in once the user allows it. The wait ends when the form is sent or closed;
 * after a failed send it starts again (a new code may be asked for). Typing always works.
 */
export function CodeField<T extends FieldValues, P>({
  form,
  name,
  label,
  hint,
  addon,
}: {
  form: UseFormReturn<T, unknown, P>;
  name: Path<T>;
  label: string;
  hint?: string;
  addon?: ReactNode;
}) {
  const { isSubmitting } = useFormState({ control: form.control });
  useEffect(() => {
    if (isSubmitting) return;
    const controller = new AbortController();
    void receiveSmsCode(controller.signal).then((code) => {
      if (code === null || controller.signal.aborted) return;
      form.setValue(name, code as PathValue<T, Path<T>>, { shouldDirty: true, shouldValidate: true });
    });
    return () => controller.abort();
  }, [form, name, isSubmitting]);
  return (
    <TextField
      control={form.control}
      name={name}
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={OTP_LENGTH}
      hint={hint}
      addon={addon}
    />
  );
}
