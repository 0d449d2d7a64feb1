import { createHash } from 'node:crypto';
import { type Delivery, type RazorpayxFake, razorpayxNameOk, type Sender, signRazorpayWebhook } from './razorpayx-fake';

/**
 * RazorpayX account validation on the local fake (its router, auth and request log), written from the
 * published pages field by field (docs/decisions/payout-account-validation.md lists them):
 * - `POST /v1/contacts` (https://razorpay.com/docs/api/x/account-validation/create-contact): name
 *   required; answers the contact entity {id cont_, entity, name, contact, email, type, reference_id,
 *   batch_id, active, notes, created_at};
 * - `POST /v1/fund_accounts` (https://razorpay.com/docs/api/x/account-validation/bank-account/create-fund-account,
 *   .../vpa/create-fund-account): contact_id, account_type bank_account {name, ifsc, account_number} or
 *   vpa {address}; answers the fund account entity {id fa_, entity, contact_id, account_type,
 *   bank_account {ifsc, bank_name, name, notes, account_number} | vpa {username, handle, address},
 *   active, batch_id, created_at};
 * - `POST /v1/fund_accounts/validations` (https://razorpay.com/docs/api/x/account-validation/bank-account,
 *   .../vpa): account_number (the business account), fund_account {id}, amount and currency for a bank
 *   account, notes; answers the validation entity (https://razorpay.com/docs/api/x/account-validation/entity)
 *   {id fav_, entity "fund_account.validation", fund_account, status "created", amount, currency, notes,
 *   results {account_status null, registered_name null}, created_at, utr null};
 * - `GET /v1/fund_accounts/validations/:id` (https://razorpay.com/docs/api/x/account-validation/fetch-with-id);
 * - life cycle created → completed (results.account_status active/invalid, registered_name) or failed
 *   (https://razorpay.com/docs/x/fund-account-validation);
 * - webhooks `fund_account.validation.completed` / `.failed`
 *   (https://razorpay.com/docs/webhooks/account-validation/): {entity "event", account_id, event,
 *   contains ["fund_account.validation"], payload {"fund_account.validation": {entity}}, created_at},
 *   signed like every RazorpayX webhook (X-Razorpay-Signature).
 */
export interface FakeValidation {
  id: string;
  entity: 'fund_account.validation';
  fund_account: Record<string, unknown>;
  status: 'created' | 'completed' | 'failed';
  amount: number | null;
  currency: string | null;
  notes: Record<string, unknown>;
  results: { account_status: string | null; registered_name: string | null; name_match_score?: number };
  status_details?: { description: string; source: string; reason: string };
  created_at: number;
  utr: string | null;
}

export const VALIDATION_WEBHOOK_EVENTS = [
  'fund_account.validation.completed',
  'fund_account.validation.failed',
] as const;

const invalid = (description: string, field: string) => ({
  error: {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'NA',
    reason: 'input_validation_failed',
    metadata: {},
    field,
  },
});

/**
 * A name as RazorpayX takes it. Create Contact (https://razorpay.com/docs/api/x/contacts/create): "A
 * minimum of 3 characters and a maximum of 50 characters ... Name cannot end with a special character,
 * except . Supported characters: a-z, A-Z, 0-9, space, ' , - , _ , / , ( , ) and ."; Create Fund
 * Account of type bank account (https://razorpay.com/docs/api/x/fund-accounts/create/bank-account): the
 * same characters and end rule, 3 to 120. Razorpay's validator also wants a letter or digit first.
 * Refusals are the Contacts error page's (https://razorpay.com/docs/errors/x/contacts): "The name field
 * is required." when missing, "The name field is invalid." otherwise.
 */
function nameRefusal(name: unknown, max: number, field: string) {
  if (typeof name !== 'string' || name.length === 0) return invalid('The name field is required.', field);
  return razorpayxNameOk(name, max) ? undefined : invalid('The name field is invalid.', field);
}

/**
 * What RazorpayX answers a merchant whose account lacks a feature (here account validation: "not
 * available in test mode and is possible only for RazorpayX Lite", https://razorpay.com/docs/api/x/account-validation/):
 * 400 with this body, as Razorpay's maintainers explain it (razorpay/razorpay-php#339: "your account does
 * not have access to this feature"; razorpay/razorpay-node#148 shows the body).
 */
export const FEATURE_NOT_ENABLED = {
  error: {
    code: 'BAD_REQUEST_ERROR',
    description: 'The requested URL was not found on the server.',
    source: 'NA',
    step: 'NA',
    reason: 'NA',
    metadata: {},
  },
};

let counter = 0;
const id = (prefix: string) =>
  `${prefix}_${String(Date.now() % 1e8).padStart(8, '0')}${String(++counter).padStart(6, '0')}`;
const parse = (raw: string): Record<string, unknown> | undefined => {
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' ? value : undefined;
  } catch {
    return undefined;
  }
};

export interface ValidationFakeOptions {
  accountNumber: string;
  webhookSecret: string;
  /**
   * A bank that answers at once: the validation is created already completed with this result (tests
   * about something else); without it every validation stays `created` until the test settles it.
   */
  instant?: (fundAccount: Record<string, unknown>) => {
    accountStatus: 'active' | 'invalid';
    registeredName: string | null;
  };
  /** A current account or test mode: validations are refused with `FEATURE_NOT_ENABLED` (changeable later). */
  validationUnavailable?: boolean;
}

export function addAccountValidation(fake: RazorpayxFake, options: ValidationFakeOptions) {
  const contacts = new Map<string, Record<string, unknown>>();
  const fundAccounts = new Map<string, Record<string, unknown>>();
  const validations = new Map<string, FakeValidation>();
  let webhookUrl = '';

  fake.route('POST', /^\/v1\/contacts$/, ({ raw, entry }, reply) => {
    const body = parse(raw);
    entry.body = body;
    const refused = nameRefusal(body?.name, 50, 'name');
    if (!body || refused) return reply(400, refused ?? invalid('The name field is required.', 'name'));
    const contact = {
      id: id('cont'),
      entity: 'contact',
      name: body.name,
      contact: body.contact ?? null,
      email: body.email ?? null,
      type: body.type ?? null,
      reference_id: body.reference_id ?? null,
      batch_id: null,
      active: true,
      notes: body.notes ?? {},
      created_at: Math.floor(Date.now() / 1000),
    };
    contacts.set(contact.id, contact);
    return reply(201, contact);
  });

  fake.route('POST', /^\/v1\/fund_accounts$/, ({ raw, entry }, reply) => {
    const body = parse(raw);
    entry.body = body;
    if (!body || typeof body.contact_id !== 'string' || !contacts.has(body.contact_id)) {
      return reply(400, invalid('The id provided does not exist', 'contact_id'));
    }
    const base = { id: id('fa'), entity: 'fund_account', contact_id: body.contact_id, account_type: body.account_type };
    let fund: Record<string, unknown>;
    if (body.account_type === 'bank_account') {
      const bank = (body.bank_account ?? {}) as Record<string, unknown>;
      const refused = nameRefusal(bank.name, 120, 'bank_account.name');
      if (refused) return reply(400, refused);
      // "The IFSC must be 11 characters." (https://razorpay.com/docs/errors/x/fund-account)
      if (typeof bank.ifsc !== 'string' || bank.ifsc.length !== 11) {
        return reply(400, invalid('The ifsc must be 11 characters.', 'bank_account.ifsc'));
      }
      // "between 5 and 35 characters. Supported characters: a-z, A-Z, and 0-9" (the same page)
      if (typeof bank.account_number !== 'string' || !/^[A-Za-z0-9]{5,35}$/.test(bank.account_number)) {
        return reply(400, invalid('The account number format is invalid.', 'bank_account.account_number'));
      }
      fund = {
        ...base,
        bank_account: {
          ifsc: bank.ifsc,
          bank_name: bank.ifsc.slice(0, 4),
          name: bank.name,
          notes: [],
          account_number: bank.account_number,
        },
      };
    } else if (body.account_type === 'vpa') {
      const address = (body.vpa as { address?: unknown } | undefined)?.address;
      if (typeof address !== 'string' || !/^[\w.-]{2,256}@[A-Za-z][\w.-]{1,64}$/.test(address)) {
        return reply(400, invalid('Invalid VPA. Please enter a valid Virtual Payment Address', 'vpa.address'));
      }
      const [username, handle] = address.split('@');
      fund = { ...base, vpa: { username, handle, address } };
    } else {
      return reply(400, invalid('The selected account type is invalid.', 'account_type'));
    }
    Object.assign(fund, { active: true, batch_id: null, created_at: Math.floor(Date.now() / 1000) });
    fundAccounts.set(fund.id as string, fund);
    return reply(200, fund);
  });

  fake.route('POST', /^\/v1\/fund_accounts\/validations$/, ({ raw, entry }, reply) => {
    const body = parse(raw);
    entry.body = body;
    if (!body) return reply(400, invalid('The request body is not valid JSON', 'body'));
    if (options.validationUnavailable) return reply(400, FEATURE_NOT_ENABLED);
    if (body.account_number !== options.accountNumber) {
      return reply(400, invalid('The account number is invalid.', 'account_number'));
    }
    const fundId = (body.fund_account as { id?: unknown } | undefined)?.id;
    const fund = typeof fundId === 'string' ? fundAccounts.get(fundId) : undefined;
    if (!fund) return reply(400, invalid('The id provided does not exist', 'fund_account.id'));
    const bank = fund.account_type === 'bank_account';
    if (bank) {
      if (!Number.isInteger(body.amount) || (body.amount as number) < 100) {
        return reply(400, invalid('The amount must be atleast INR 1.00', 'amount'));
      }
      if (body.currency !== 'INR') return reply(400, invalid('The currency must be INR.', 'currency'));
    }
    const validation: FakeValidation = {
      id: id('fav'),
      entity: 'fund_account.validation',
      fund_account: structuredClone(fund),
      status: 'created',
      amount: bank ? (body.amount as number) : null,
      currency: bank ? 'INR' : null,
      notes: (body.notes as Record<string, unknown>) ?? {},
      results: { account_status: null, registered_name: null },
      created_at: Math.floor(Date.now() / 1000),
      utr: null,
    };
    validations.set(validation.id, validation);
    const instant = options.instant?.(fund);
    if (instant) {
      validation.status = 'completed';
      validation.results = { account_status: instant.accountStatus, registered_name: instant.registeredName };
    }
    return reply(200, validation);
  });

  fake.route('GET', /^\/v1\/fund_accounts\/validations\/([^/]+)$/, ({ params }, reply) => {
    const validation = validations.get(decodeURIComponent(params[0] ?? ''));
    if (!validation) return reply(400, invalid('The id provided does not exist', 'id'));
    return reply(200, validation);
  });

  function webhook(event: (typeof VALIDATION_WEBHOOK_EVENTS)[number], validation: FakeValidation, secret?: string) {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_KamaiFake0001',
      event,
      contains: ['fund_account.validation'],
      payload: { 'fund_account.validation': { entity: validation } },
      created_at: Math.floor(Date.now() / 1000),
    });
    const delivery: Delivery = {
      url: webhookUrl,
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': signRazorpayWebhook(body, secret ?? options.webhookSecret),
        'x-razorpay-event-id': `evt_${createHash('sha256').update(body).digest('hex').slice(0, 14)}`,
      },
      body,
    };
    return delivery;
  }

  const fetchSender: Sender = async (delivery) => {
    const response = await fetch(delivery.url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    return { status: response.status, body: await response.text() };
  };

  return {
    contacts,
    fundAccounts,
    validations,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** The newest validation of a bank account number or UPI id. */
    latestFor(accountNo: string) {
      return [...validations.values()].reverse().find((v) => {
        const fund = v.fund_account as { bank_account?: { account_number?: string }; vpa?: { address?: string } };
        return fund.bank_account?.account_number === accountNo || fund.vpa?.address === accountNo;
      });
    },
    /** The bank answered: completed with the account's status and registered name (a snapshot for webhooks). */
    complete(
      validationId: string,
      result: { accountStatus: 'active' | 'invalid'; registeredName: string | null; nameMatchScore?: number },
    ) {
      const validation = validations.get(validationId);
      if (!validation) throw new Error(`fake: no validation ${validationId}`);
      validation.status = 'completed';
      validation.results = {
        account_status: result.accountStatus,
        registered_name: result.registeredName,
        ...(result.nameMatchScore === undefined ? {} : { name_match_score: result.nameMatchScore }),
      };
      validation.utr = result.accountStatus === 'active' ? String(100_000_000_000 + counter) : null;
      return structuredClone(validation);
    },
    /** The check itself failed (a technical error at the bank). */
    fail(validationId: string, description = 'Validation failed due to a technical error at the beneficiary bank') {
      const validation = validations.get(validationId);
      if (!validation) throw new Error(`fake: no validation ${validationId}`);
      validation.status = 'failed';
      validation.status_details = { description, source: 'beneficiary_bank', reason: 'validation_failed' };
      return structuredClone(validation);
    },
    webhook,
    async deliver(
      event: (typeof VALIDATION_WEBHOOK_EVENTS)[number],
      validation: FakeValidation,
      extra: { secret?: string; via?: Sender } = {},
    ) {
      return (extra.via ?? fetchSender)(webhook(event, validation, extra.secret));
    },
  };
}

export type ValidationFake = ReturnType<typeof addAccountValidation>;
