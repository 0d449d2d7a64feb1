import {
  normalizeAccountNo,
  PAYOUT_ACCOUNT_TYPES,
  type PayoutAccountType,
  payoutAccountBindBody,
  payoutAccountEditBody,
} from '@kamai/contract';
import { ifscParts } from '@kamai/contract/constants';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextField } from '../../../components/text-field';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { useBindPayoutAccount, useEditPayoutAccount } from '../api/payout-accounts';
import '../payout-accounts.css';

/**
 * The dialog's values: the contract's fields plus `id` (empty to add), `masked` (the stored number,
 * shown when editing) and `returnTo` (a form to return to after saving, e.g. the withdraw form).
 */
interface Values {
  id: string;
  accountType: PayoutAccountType;
  accountNo: string;
  /** A bank account number typed again, to catch a slip before money goes to a stranger's account. */
  accountNo2: string;
  ifsc: string;
  accountName: string;
  isDefault: boolean | string;
  masked: string;
  returnTo: string;
}

type Parsed =
  | { kind: 'bind'; body: z.output<typeof payoutAccountBindBody>; returnTo: string }
  | { kind: 'edit'; body: z.output<typeof payoutAccountEditBody>; returnTo: string };

/** Adding checks with `wdaccount/bind`'s rules, editing with `wdaccount/edit`'s (empty number keeps it). */
const schema = z
  .looseObject({ id: z.string().default(''), returnTo: z.string().default('') })
  .transform((value, ctx) => {
    const {
      masked: _masked,
      returnTo,
      accountNo2,
      ...rest
    } = value as Record<string, unknown> & { returnTo: string; accountNo2?: string };
    const result = value.id ? payoutAccountEditBody.safeParse(rest) : payoutAccountBindBody.safeParse(rest);
    const typed = typeof rest.accountNo === 'string' ? normalizeAccountNo(rest.accountNo) : '';
    const mismatch = rest.accountType === 'bank' && typed !== '' && normalizeAccountNo(accountNo2 ?? '') !== typed;
    if (mismatch) ctx.addIssue({ code: 'custom', message: 'account_numbers_do_not_match', path: ['accountNo2'] });
    if (!result.success) {
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      }
      return z.NEVER;
    }
    if (mismatch) return z.NEVER;
    return value.id
      ? ({ kind: 'edit', body: result.data, returnTo } as Parsed)
      : ({ kind: 'bind', body: result.data, returnTo } as Parsed);
  }) as unknown as z.ZodType<Parsed, Values>;

const isOn = (value: unknown) => value === true || value === '1' || value === 1;

function PayoutAccountFields({ form }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation('payoutAccounts');
  const type = form.watch('accountType');
  const editing = form.watch('id') !== '';
  const masked = form.watch('masked');
  const keep = editing && masked ? t('account.keepNumber', { masked }) : undefined;
  const typedNumber = form.watch('accountNo');
  const ifsc = ifscParts(form.watch('ifsc') ?? '');
  const ifscNote = ifsc
    ? ifsc.bank
      ? t('accountForm.ifscBank', { bank: ifsc.bank, branch: ifsc.branchCode })
      : t('accountForm.ifscUnknown', { branch: ifsc.branchCode })
    : undefined;
  return (
    <>
      <Controller
        control={form.control}
        name="accountType"
        render={({ field }) => (
          <fieldset className="segmented radius-10">
            <legend className="visually-hidden">{t('account.type')}</legend>
            {PAYOUT_ACCOUNT_TYPES.map((option) => (
              <label key={option} className="segmented-option muted text-14 text-center">
                <input
                  type="radio"
                  name={field.name}
                  value={option}
                  checked={field.value === option}
                  onChange={() => {
                    field.onChange(option);
                    // A UPI ID is no account number (nor the reverse): switching starts the number afresh.
                    for (const name of ['accountNo', 'accountNo2', 'ifsc'] as const) form.setValue(name, '');
                    form.clearErrors();
                  }}
                />
                {t(`account.${option}`)}
              </label>
            ))}
          </fieldset>
        )}
      />
      {type === 'bank' ? (
        <>
          <TextField
            key="bank-no"
            control={form.control}
            name="accountNo"
            label={t('account.accountNo')}
            showLabel
            inputMode="numeric"
            autoComplete="off"
            maxLength={24}
            hint={keep}
          />
          {typedNumber.trim() !== '' && (
            <TextField
              key="bank-no-2"
              control={form.control}
              name="accountNo2"
              label={t('accountForm.accountNo2')}
              showLabel
              inputMode="numeric"
              autoComplete="off"
              maxLength={24}
            />
          )}
          <TextField
            control={form.control}
            name="ifsc"
            label={t('account.ifsc')}
            showLabel
            autoComplete="off"
            maxLength={11}
            hint={ifscNote}
          />
          <TextField
            control={form.control}
            name="accountName"
            label={t('account.recipientName')}
            showLabel
            autoComplete="name"
            maxLength={100}
          />
        </>
      ) : (
        <>
          <TextField
            key="upi-id"
            control={form.control}
            name="accountNo"
            label={t('account.upiId')}
            showLabel
            type="email"
            inputMode="email"
            autoComplete="off"
            maxLength={100}
            hint={keep}
          />
          <TextField
            control={form.control}
            name="accountName"
            label={t('account.holderName')}
            showLabel
            autoComplete="name"
            maxLength={100}
          />
        </>
      )}
      <Controller
        control={form.control}
        name="isDefault"
        render={({ field }) => (
          <div className="switch-row row text-14 space-between">
            <span id="payout-default-label">{t('account.isDefault')}</span>
            <input
              type="checkbox"
              role="switch"
              className="switch flex-none"
              checked={isOn(field.value)}
              aria-checked={isOn(field.value)}
              onChange={(event) => field.onChange(event.target.checked)}
              aria-labelledby="payout-default-label"
            />
          </div>
        )}
      />
    </>
  );
}

/**
 * The global dialog's "payout method" form (spec section 3): UPI (the default) or bank; IFSC only for
 * a bank. `data.id` edits that account; `data.returnTo: 'withdraw'` opens the withdraw form after saving.
 */
export const payoutAccountForm: FormModule<Values, Parsed> = {
  schema,
  defaultValues: {
    id: '',
    accountType: 'upi',
    accountNo: '',
    accountNo2: '',
    ifsc: '',
    accountName: '',
    isDefault: true,
    masked: '',
    returnTo: '',
  },
  Fields: PayoutAccountFields,
  usePost: () => {
    const bind = useBindPayoutAccount();
    const edit = useEditPayoutAccount();
    return async (values) => {
      const { message } =
        values.kind === 'bind' ? await bind.mutateAsync(values.body) : await edit.mutateAsync(values.body);
      return { message, next: values.returnTo === 'withdraw' ? { name: 'withdraw' } : undefined };
    };
  },
};
