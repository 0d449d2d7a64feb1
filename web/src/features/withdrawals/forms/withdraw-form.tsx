import { ApiError } from '@kamai/client';
import {
  formatRupees as paiseToRupees,
  parseRupees,
  type WithdrawAddBody,
  withdrawAddBody,
  withdrawalLimitProblem,
} from '@kamai/contract';
import { formatMoney } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { currentLocale } from '../../../i18n';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { AccountLabel, usePayoutAccounts } from '../../payout-accounts';
import { useWithdraw, useWithdrawLimits } from '../api/withdrawals';
import '../withdrawals.css';

type Values = { amount: string; accountId: string };
type Parsed = z.output<typeof withdrawAddBody>;

/**
 * The contract's rules, except that zero passes the form's parse: "0" is below the minimum, and the
 * limit check in usePost says so with the minimum's amount (the contract alone would only say
 * "invalid amount"). No account chosen (the user has none) leaves the choice to the server's default.
 */
const amountField = z
  .string()
  .refine((value) => value.trim() !== '', { message: 'enter_withdrawal_amount', abort: true })
  .transform((value, ctx) => {
    const paise = parseRupees(value);
    if (paise === undefined || paise < 0n) {
      ctx.addIssue({ code: 'custom', message: 'invalid_amount' });
      return z.NEVER;
    }
    return paise;
  });
const schema = z
  .object({ amount: z.string(), accountId: z.string() })
  .transform((value): WithdrawAddBody => ({ amount: value.amount, accountId: value.accountId || undefined }))
  .pipe(withdrawAddBody.extend({ amount: amountField }));

function WithdrawFields({ form, show }: FormFieldsProps<Values, Parsed>) {
  const { t } = useTranslation(['payouts', 'common']);
  const locale = currentLocale();
  const limits = useWithdrawLimits();
  const accounts = usePayoutAccounts();

  // The default account is chosen until the user picks another.
  const chosen = form.watch('accountId');
  useEffect(() => {
    const items = accounts.data ?? [];
    if (items.length > 0 && !items.some((item) => String(item.id) === chosen)) {
      const preferred = items.find((item) => item.isDefault === 1) ?? items[0];
      if (preferred) form.setValue('accountId', String(preferred.id));
    }
  }, [accounts.data, chosen, form]);

  const money = (rupees: string) => formatMoney(rupees, locale);
  const failed = limits.isError || accounts.isError;

  return (
    <>
      <div className="withdraw-summary" aria-busy={limits.isPending}>
        <p className="withdraw-balance text-14 space-between">
          <span>{t('withdraw.balance')}</span>
          <strong>{limits.data ? money(limits.data.balance) : '…'}</strong>
        </p>
        {limits.data && (
          <p className="withdraw-limits muted text-12">
            {t('withdraw.limits', { min: money(limits.data.min), max: money(limits.data.max) })}
            <br />
            {t('withdraw.today', {
              count: limits.data.todayCount,
              dailyCount: limits.data.dailyCount,
              total: money(limits.data.todayTotal),
              dailyTotal: money(limits.data.dailyTotal),
            })}
          </p>
        )}
      </div>
      {limits.data?.frozen && (
        <p className="stack withdraw-notice withdraw-notice-warning text-14">{t('withdraw.frozen')}</p>
      )}
      <TextField
        control={form.control}
        name="amount"
        label={t('withdraw.amount')}
        inputMode="numeric"
        autoComplete="off"
        maxLength={15}
        prefix="₹"
        addon={
          limits.data && (
            <button
              type="button"
              className="link-button"
              onClick={() => form.setValue('amount', maxAmount(limits.data.balance, limits.data.max))}
            >
              {t('withdraw.all')}
            </button>
          )
        }
      />
      {failed ? (
        <p className="stack withdraw-notice text-14">
          {t('common:request.failed')}{' '}
          <Button size="mini" shape="rounded" onClick={() => void Promise.all([limits.refetch(), accounts.refetch()])}>
            {t('common:request.retry')}
          </Button>
        </p>
      ) : accounts.data && accounts.data.length === 0 ? (
        <div className="stack withdraw-notice text-14">
          <p>{t('withdraw.noAccount')}</p>
          <Button
            size="small"
            color="primary"
            fill="outline"
            onClick={() => show('payoutAccount', { returnTo: 'withdraw' })}
          >
            {t('withdraw.addAccount')}
          </Button>
        </div>
      ) : (
        <Controller
          control={form.control}
          name="accountId"
          render={({ field }) => (
            <fieldset className="stack withdraw-accounts">
              <legend>{t('withdraw.account')}</legend>
              {accounts.isPending && <span className="skeleton-line" aria-hidden />}
              {accounts.data?.map((item) => (
                <label key={item.id} className="withdraw-account row">
                  <input
                    type="radio"
                    name={field.name}
                    value={String(item.id)}
                    checked={field.value === String(item.id)}
                    onChange={() => field.onChange(String(item.id))}
                  />
                  <AccountLabel account={item} />
                </label>
              ))}
            </fieldset>
          )}
        />
      )}
      {limits.data && (
        <p className="text-field-note withdraw-fee">
          {parseRupees(limits.data.fee) ? t('withdraw.fee', { fee: money(limits.data.fee) }) : t('withdraw.noFee')}
          <br />
          {t('withdraw.payoutTime', { hours: limits.data.payoutHours })}
        </p>
      )}
      <p className="text-field-note">{t('withdraw.review')}</p>
    </>
  );
}

/** The smaller of the balance and the maximum, as a rupee string for the amount field. */
function maxAmount(balance: string, max: string): string {
  const a = parseRupees(balance) ?? 0n;
  const b = parseRupees(max) ?? 0n;
  return paiseToRupees(a < b ? a : b);
}

/**
 * The global dialog's "withdraw" form (spec section 3): amount and payout account, balance and limits
 * shown. Each distinct request gets its own Idempotency-Key, kept while it is retried unchanged, so a
 * retry after a lost answer cannot withdraw twice.
 */
export const withdrawForm: FormModule<Values, Parsed> = {
  schema,
  defaultValues: { amount: '', accountId: '' },
  Fields: WithdrawFields,
  usePost: () => {
    const { t } = useTranslation('errors');
    const withdraw = useWithdraw();
    const limits = useWithdrawLimits();
    const attempt = useRef<{ body: string; key: string }>({ body: '', key: newIdempotencyKey() });
    return async ({ amount, accountId }) => {
      const info = limits.data;
      if (!info && amount <= 0n) {
        throw new ApiError({
          code: 400,
          key: 'invalid_amount',
          message: t('invalid_amount'),
          data: { fields: { amount: 'invalid_amount' } },
        });
      }
      if (info) {
        // The server decides under the wallet lock; this only saves a round trip for a sure refusal.
        const format = (paise: bigint) => formatMoney(paise, currentLocale(), { symbol: false });
        const problem =
          (parseRupees(info.balance) ?? 0n) < amount
            ? { key: 'insufficient_balance' as const, vars: {} }
            : withdrawalLimitProblem(
                amount,
                {
                  min: parseRupees(info.min) ?? 0n,
                  max: parseRupees(info.max) ?? 0n,
                  dailyCount: info.dailyCount,
                  dailyTotal: parseRupees(info.dailyTotal) ?? 0n,
                },
                { count: info.todayCount, total: parseRupees(info.todayTotal) ?? 0n },
                format,
              );
        if (problem) {
          const message = t(problem.key, problem.vars);
          // The field shows the text itself: the catalogue key alone would lose the variables.
          throw new ApiError({ code: 400, key: problem.key, message, data: { fields: { amount: message } } });
        }
      }
      const body: WithdrawAddBody = { amount: paiseToRupees(amount), accountId: accountId ?? undefined };
      const text = JSON.stringify(body);
      if (attempt.current.body !== text) attempt.current = { body: text, key: newIdempotencyKey() };
      const { message } = await withdraw.mutateAsync({ body, key: attempt.current.key });
      return { message };
    };
  },
};
