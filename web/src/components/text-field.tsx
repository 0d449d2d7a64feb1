import { isMessageKey } from '@kamai/contract/constants';
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { type ReactNode, useId, useState } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import '../i18n/errors';

interface TextFieldProps<T extends FieldValues> {
  control: Control<T, unknown, unknown>;
  name: Path<T>;
  /** Placeholder and accessible name. */
  label: string;
  type?: 'text' | 'password' | 'tel' | 'email';
  autoComplete?: string;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  maxLength?: number;
  /** Shown under the input while it has no error. */
  hint?: string;
  /** Before the input, e.g. the country code "+91". */
  prefix?: ReactNode;
  /** Beside the input, e.g. a "Send code" button. */
  addon?: ReactNode;
  /** Shows `label` above the input as a real label, not only as the placeholder. */
  showLabel?: boolean;
  /** The input's placeholder when it differs from the label (an example: "98765 43210"). */
  placeholder?: string;
  /** Below the note, e.g. a switch to another way of filling the field. */
  after?: ReactNode;
  /** Called after the form has recorded that the field was left (e.g. to check it at once). */
  onBlur?: () => void;
}

/**
 * One input of a dialog form, bound to react-hook-form; errors are catalogue keys shown in the current
 * language. A native input, because antd-mobile's Input repeats aria-label on its wrapper.
 */
export function TextField<T extends FieldValues>(props: TextFieldProps<T>) {
  const { t } = useTranslation(['common', 'errors']);
  const messageId = useId();
  const inputId = useId();
  // Every password field can show what was typed (a phone keyboard makes typos easy to miss).
  const [revealed, setRevealed] = useState(false);
  const type = props.type === 'password' && revealed ? 'text' : (props.type ?? 'text');
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => {
        const error = fieldState.error?.message;
        const note = error ? (isMessageKey(error) ? t(`errors:${error}`) : error) : props.hint;
        return (
          <div className="text-field">
            {props.showLabel && (
              <label htmlFor={inputId} className="text-field-label muted text-13">
                {props.label}
              </label>
            )}
            <div
              className={error ? 'text-field-box radius-10 row text-field-box-error' : 'text-field-box radius-10 row'}
            >
              {props.prefix && (
                <span className="text-field-prefix row semibold flex-none" aria-hidden>
                  {props.prefix}
                </span>
              )}
              <input
                ref={field.ref}
                id={inputId}
                className="text-field-input radius-10"
                name={field.name}
                value={typeof field.value === 'string' ? field.value : ''}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={() => {
                  field.onBlur();
                  props.onBlur?.();
                }}
                type={type}
                autoComplete={props.autoComplete}
                inputMode={props.inputMode}
                maxLength={props.maxLength}
                placeholder={props.placeholder ?? props.label}
                aria-label={props.showLabel ? undefined : props.label}
                aria-invalid={error ? true : undefined}
                aria-describedby={note ? messageId : undefined}
              />
              {props.type === 'password' && (
                <button
                  type="button"
                  className="text-field-reveal muted row flex-none"
                  aria-label={revealed ? t('common:hidePassword') : t('common:showPassword')}
                  aria-pressed={revealed}
                  onClick={() => setRevealed((shown) => !shown)}
                >
                  {revealed ? <EyeInvisibleOutline aria-hidden /> : <EyeOutline aria-hidden />}
                </button>
              )}
              {props.addon}
            </div>
            {note && (
              <p id={messageId} className={error ? 'text-field-note text-field-error' : 'text-field-note muted'}>
                {note}
              </p>
            )}
            {props.after}
          </div>
        );
      }}
    />
  );
}
