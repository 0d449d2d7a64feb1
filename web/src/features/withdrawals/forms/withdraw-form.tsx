import { ApiError } from '@kamai/client';
import type { withdrawLimitsData } from '@kamai/contract';
import {
  formatMoneyVars,
  limitRefusalFor,
  formatRupees as paiseToRupees,
  parseRupees,
  type WithdrawAddBody,
  withdrawAddBody,
} from '@kamai/contract';
import { formatMoney, isMessageKey } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TextField } from '../../../components/text-field';
import { currentLocale } from '../../../i18n';
import type { FormFieldsProps, FormModule } from '../../../lib/form-dialog';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { AccountLabel, PayingTo, usePayoutAccounts } from '../../payout-accounts';
import { useWithdraw, useWithdrawLimits } from '../api/withdrawals';
import { WithdrawalTracker } from '../components/withdrawal-tracker';
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
  const { t } = useTranslation(['withdrawals', 'common', 'errors']);
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
  const amountText = form.watch('amount');
  const failed = limits.isError || accounts.isError;

  return (
    <>
      <div className="withdraw-summary radius-10" aria-busy={limits.isPending}>
        <p className="withdraw-balance text-14 flex space-between">
          <span>{t('withdraw.balance')}</span>
          <strong className="tabular">{limits.data ? money(limits.data.balance) : '…'}</strong>
        </p>
        {limits.data && (
          <p className="withdraw-limits muted text-12">
            {t('withdraw.limits', { min: money(limits.data.min), max: money(limits.data.max) })}
            <br />
            {t('withdraw.todayTotal', {
              total: money(limits.data.todayTotal),
              dailyTotal: money(limits.data.dailyTotal),
            })}
            <br />
            <strong className="withdraw-left">
              {t('withdraw.left', { count: limits.data.requestsLeft, dailyCount: limits.data.dailyCount })}
            </strong>
            <br />
            {t('withdraw.cancelRule', { count: limits.data.dailyCount })}
          </p>
        )}
      </div>
      {limits.data?.frozen && (
        <p className="stack withdraw-notice radius-10 withdraw-notice-warning text-14">{t('withdraw.frozen')}</p>
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
              className="link-button primary"
              onClick={() => form.setValue('amount', maxAmount(limits.data.balance, limits.data.max))}
            >
              {t('withdraw.all')}
            </button>
          )
        }
      />
      {failed ? (
        <p className="stack withdraw-notice radius-10 text-14">
          {t('common:request.failed')}{' '}
          <Button size="mini" shape="rounded" onClick={() => void Promise.all([limits.refetch(), accounts.refetch()])}>
            {t('common:request.retry')}
          </Button>
        </p>
      ) : accounts.data && accounts.data.length === 0 ? (
        <div className="stack withdraw-notice radius-10 text-14">
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
          render={({ field, fieldState }) => (
            <fieldset className="stack withdraw-accounts" aria-invalid={fieldState.error ? true : undefined}>
              <legend className="muted text-13">{t('withdraw.account')}</legend>
              {accounts.isPending && <span className="skeleton-line" aria-hidden />}
              {accounts.data?.map((item) => (
                <label key={item.id} className="withdraw-account radius-10 row">
                  <input
                    className="flex-none"
                    type="radio"
                    name={field.name}
                    value={String(item.id)}
                    checked={field.value === String(item.id)}
                    onChange={() => field.onChange(String(item.id))}
                  />
                  <AccountLabel account={item} />
                </label>
              ))}
              {fieldState.error?.message && (
                <p className="text-field-note text-field-error">
                  {isMessageKey(fieldState.error.message)
                    ? t(`errors:${fieldState.error.message}`)
                    : fieldState.error.message}
                </p>
              )}
              <PayingTo verification={accounts.data?.find((item) => String(item.id) === field.value)?.verification} />
            </fieldset>
          )}
        />
      )}
      {limits.data && <Receipt amount={amountText} fee={limits.data.fee} />}
      {limits.data && (
        <p className="text-field-note muted withdraw-fee">
          {parseRupees(limits.data.fee) ? t('withdraw.fee', { fee: money(limits.data.fee) }) : t('withdraw.noFee')}
          <br />
          {t('withdraw.payoutTime', { hours: limits.data.payoutHours })}
        </p>
      )}
      <p className="text-field-note muted">{t('withdraw.review')}</p>
    </>
  );
}

/** Gross, fee and net in paise from the typed amount and the fee setting; undefined while no amount is typed. */
export function split(amount: string | bigint, fee: string) {
  const gross = typeof amount === 'bigint' ? amount : parseRupees(amount.trim());
  if (gross === undefined || gross <= 0n) return undefined;
  const cut = parseRupees(fee) ?? 0n;
  return { gross, fee: cut, net: gross > cut ? gross - cut : 0n };
}

/** "You receive ₹X" as the amount is typed: amount, fee and what reaches the account. */
function Receipt({ amount, fee, big = false }: { amount: string | bigint; fee: string; big?: boolean }) {
  const { t } = useTranslation('withdrawals');
  const locale = currentLocale();
  const parts = split(amount, fee);
  if (!parts) return null;
  return (
    <dl
      className={`withdraw-receipt radius-10 tabular text-14${big ? ' withdraw-receipt-big' : ''}`}
      aria-live="polite"
    >
      {parts.fee > 0n && (
        <>
          <div className="space-between">
            <dt>{t('receipt.amount')}</dt>
            <dd>{formatMoney(parts.gross, locale)}</dd>
          </div>
          <div className="space-between">
            <dt>{t('receipt.fee')}</dt>
            <dd>{formatMoney(-parts.fee, locale)}</dd>
          </div>
        </>
      )}
      <div className="space-between semibold dark withdraw-receipt-net">
        <dt>{t('receipt.youReceive')}</dt>
        <dd>{formatMoney(parts.net, locale)}</dd>
      </div>
    </dl>
  );
}

/** The review step: what leaves the balance, the fee, what arrives and where, before the request is made. */
function WithdrawReview({ values }: { values: Parsed }) {
  const { t } = useTranslation('withdrawals');
  const limits = useWithdrawLimits();
  const accounts = usePayoutAccounts();
  const account = accounts.data?.find((item) => String(item.id) === String(values.accountId ?? ''));
  return (
    <div className="stack withdraw-review">
      <p className="semibold text-15">{t('receipt.reviewTitle')}</p>
      <Receipt amount={values.amount} fee={limits.data?.fee ?? '0'} big />
      {account && (
        <p className="withdraw-review-account text-14">
          {t('withdraw.account')}: <AccountLabel account={account} />
        </p>
      )}
      <p className="text-field-note muted">
        {limits.data && t('withdraw.payoutTime', { hours: limits.data.payoutHours })}
        <br />
        {t('withdraw.review')}
      </p>
    </div>
  );
}

/** After the request: what happens next, as the state tracker shows it. */
function WithdrawDone({ result }: { result: unknown }) {
  const { t } = useTranslation('withdrawals');
  const done = result as { id: number; amount: bigint; fee: string };
  const parts = split(done.amount, done.fee);
  const locale = currentLocale();
  return (
    <div className="stack withdraw-done">
      <p className="semibold text-16">{t('receipt.doneTitle')}</p>
      {parts && (
        <p className="text-14">{t('receipt.doneText', { net: formatMoney(parts.net, locale), id: done.id })}</p>
      )}
      <WithdrawalTracker state="pending" />
    </div>
  );
}

/** A refusal the form can tell without asking the server (the server decides under the wallet lock). */
function sureRefusal(
  amount: bigint,
  info: z.output<typeof withdrawLimitsData> | undefined,
  t: (key: string, vars?: object) => string,
) {
  if (!info && amount <= 0n) {
    return new ApiError({
      code: 400,
      key: 'invalid_amount',
      message: t('invalid_amount'),
      data: { fields: { amount: 'invalid_amount' } },
    });
  }
  if (!info) return undefined;
  const format = (paise: bigint) => formatMoney(paise, currentLocale(), { symbol: false });
  // The limits' refusals come from the server, which decides with the same list (db/functions).
  const refusal = limitRefusalFor(amount, info.refusals);
  const problem =
    (parseRupees(info.balance) ?? 0n) < amount
      ? { key: 'insufficient_balance' as const, vars: {} }
      : refusal && { key: refusal.key, vars: formatMoneyVars(refusal.vars, format) };
  if (!problem) return undefined;
  const message = t(problem.key, problem.vars);
  // The field shows the text itself: the catalogue key alone would lose the variables.
  return new ApiError({ code: 400, key: problem.key, message, data: { fields: { amount: message } } });
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
  review: {
    useCheck: () => {
      const { t } = useTranslation('errors');
      const limits = useWithdrawLimits();
      return ({ amount }) => {
        const refusal = sureRefusal(amount, limits.data, t as never);
        if (refusal) throw refusal;
      };
    },
    Body: WithdrawReview,
  },
  Done: WithdrawDone,
  usePost: () => {
    const { t } = useTranslation('errors');
    const withdraw = useWithdraw();
    const limits = useWithdrawLimits();
    const attempt = useRef<{ body: string; key: string }>({ body: '', key: newIdempotencyKey() });
    return async ({ amount, accountId }) => {
      const refusal = sureRefusal(amount, limits.data, t as never);
      if (refusal) throw refusal;
      const body: WithdrawAddBody = { amount: paiseToRupees(amount), accountId: accountId ?? undefined };
      const text = JSON.stringify(body);
      if (attempt.current.body !== text) attempt.current = { body: text, key: newIdempotencyKey() };
      const { message, data } = await withdraw.mutateAsync({ body, key: attempt.current.key });
      return { message, done: { id: data.id, amount, fee: limits.data?.fee ?? '0' } };
    };
  },
};
