import { razorpayxValidationEntity } from '@kamai/contract';
import type { AccountValidator, ValidationAnswer, ValidationInput } from '../payout-accounts';
import { reportOf } from '../payout-accounts';
import { type RazorpayxCall, RazorpayxError, type RazorpayxErrorBody } from './payouts.razorpayx';

/**
 * RazorpayX account validation, the three documented steps
 * (https://razorpay.com/docs/x/fund-account-validation, https://razorpay.com/docs/api/x/account-validation/):
 * `POST /v1/contacts`, `POST /v1/fund_accounts` (bank_account or vpa), then
 * `POST /v1/fund_accounts/validations` from our business account (`account_number`), with `amount`
 * 100 paise and `currency` INR for a bank account (the penny drop); the result is fetched with
 * `GET /v1/fund_accounts/validations/:id` or arrives by the `fund_account.validation.*` webhook.
 */
export function createRazorpayxValidator(call: RazorpayxCall, accountNumber: string): AccountValidator {
  const errorOf = (json: unknown) => (json as { error?: RazorpayxErrorBody } | undefined)?.error;

  /** A 400 BAD_REQUEST_ERROR is final (the account's details are refused); anything else is retried. */
  function refusal(what: string, status: number, json: unknown): ValidationAnswer {
    const error = errorOf(json);
    if (status === 400 && error?.code === 'BAD_REQUEST_ERROR') {
      return {
        gatewayValidationId: null,
        fundAccountId: null,
        report: { status: 'failed', reason: error.description || `RazorpayX refused the ${what}` },
        evidence: { status, error },
      };
    }
    throw new RazorpayxError(`RazorpayX ${what} answered ${status}: ${error?.description ?? ''}`, status, error);
  }

  function answerOf(json: unknown, what: string): ValidationAnswer {
    const parsed = razorpayxValidationEntity.safeParse(json);
    if (!parsed.success) throw new RazorpayxError(`RazorpayX ${what}: an answer that is not a validation`, 200);
    return {
      gatewayValidationId: parsed.data.id,
      fundAccountId: parsed.data.fund_account?.id ?? null,
      report: reportOf(parsed.data),
      evidence: parsed.data as Record<string, unknown>,
    };
  }

  async function start(input: ValidationInput, signal: AbortSignal): Promise<ValidationAnswer> {
    // https://razorpay.com/docs/api/x/account-validation/create-contact
    const contact = await call('POST', '/v1/contacts', signal, {
      name: input.accountName,
      type: 'customer',
      reference_id: `kamai-user-${input.userId}`,
    });
    if (contact.status !== 200 && contact.status !== 201) return refusal('contact', contact.status, contact.json);
    const contactId = (contact.json as { id?: unknown } | undefined)?.id;
    if (typeof contactId !== 'string') throw new RazorpayxError('RazorpayX contact: an answer without an id', 200);
    // https://razorpay.com/docs/api/x/account-validation/bank-account/create-fund-account and .../vpa/create-fund-account
    const bank = input.accountType === 'bank';
    const fund = await call(
      'POST',
      '/v1/fund_accounts',
      signal,
      bank
        ? {
            contact_id: contactId,
            account_type: 'bank_account',
            bank_account: { name: input.accountName, ifsc: input.ifsc, account_number: input.accountNo },
          }
        : { contact_id: contactId, account_type: 'vpa', vpa: { address: input.accountNo } },
    );
    if (fund.status !== 200 && fund.status !== 201) return refusal('fund account', fund.status, fund.json);
    const fundAccountId = (fund.json as { id?: unknown } | undefined)?.id;
    if (typeof fundAccountId !== 'string')
      throw new RazorpayxError('RazorpayX fund account: an answer without an id', 200);
    // https://razorpay.com/docs/api/x/account-validation/bank-account (amount and currency: the penny
    // drop) and https://razorpay.com/docs/api/x/account-validation/vpa (no amount).
    const notes = { kamai_validation_id: String(input.validationId), kamai_attempt: String(input.attempt) };
    const validation = await call(
      'POST',
      '/v1/fund_accounts/validations',
      signal,
      bank
        ? { account_number: accountNumber, fund_account: { id: fundAccountId }, amount: 100, currency: 'INR', notes }
        : { account_number: accountNumber, fund_account: { id: fundAccountId }, notes },
    );
    if (validation.status !== 200 && validation.status !== 201) {
      // The contact and the fund account were taken, so the details are fine; a validation refused now
      // is RazorpayX not validating here ("Account Validation is not available in test mode and is
      // possible only for RazorpayX Lite", https://razorpay.com/docs/api/x/account-validation/; "FAV is
      // only supported for RazorpayX Lite and not the Current Account", https://razorpay.com/docs/x/fund-accounts/faqs;
      // an account without the feature is answered 400 BAD_REQUEST_ERROR "The requested URL was not
      // found on the server.", as Razorpay's maintainers explain in razorpay/razorpay-php#339 and
      // razorpay/razorpay-node#148) or its balance being short (the "Insufficient Balance" answer of
      // https://razorpay.com/docs/api/x/account-validation/bank-account): an operator checks it instead.
      const answer = refusal('validation', validation.status, validation.json);
      if (answer.report.status !== 'failed') return { ...answer, fundAccountId };
      return { ...answer, fundAccountId, report: { status: 'unavailable', reason: answer.report.reason } };
    }
    return answerOf(validation.json, 'validation');
  }

  /** https://razorpay.com/docs/api/x/account-validation/fetch-with-id */
  async function fetch(id: string, signal: AbortSignal): Promise<ValidationAnswer> {
    const { status, json } = await call('GET', `/v1/fund_accounts/validations/${encodeURIComponent(id)}`, signal);
    if (status === 200) return answerOf(json, `fetch ${id}`);
    const error = errorOf(json);
    throw new RazorpayxError(
      `RazorpayX fetch validation ${id} answered ${status}: ${error?.description ?? ''}`,
      status,
      error,
    );
  }

  return { gateway: 'razorpayx', start, fetch };
}
