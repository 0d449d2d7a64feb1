import type { PayoutAccountType, PayoutGatewayName, RazorpayxValidationEntity } from '@kamai/contract';

/** What a gateway says of a check: still under way, the bank's answer, or that the check itself failed. */
export type ValidationReport =
  | { status: 'pending' }
  | {
      status: 'completed';
      accountStatus: 'active' | 'invalid';
      registeredName: string | null;
      /** The gateway's own score (0-100), where it returns one. */
      nameMatchScore: number | null;
      details: string | null;
    }
  | { status: 'failed'; reason: string }
  /**
   * The gateway cannot check accounts here (RazorpayX validates only on RazorpayX Lite and never in
   * test mode, https://razorpay.com/docs/api/x/account-validation/): an operator checks it instead.
   */
  | { status: 'unavailable'; reason: string };

export interface ValidationInput {
  /** Our account_validations row (RazorpayX: in the validation's notes, so a lost answer can be matched). */
  validationId: number;
  attempt: number;
  userId: number;
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
}

export interface ValidationAnswer {
  gatewayValidationId: string | null;
  fundAccountId: string | null;
  report: ValidationReport;
  evidence: Record<string, unknown>;
}

/**
 * Checks a bank account (penny drop) or a UPI id (VPA lookup) with the bank. `start` throws when the
 * outcome is unknown (network, 5xx: retried); a refusal that can never succeed answers `failed`.
 */
export interface AccountValidator {
  readonly gateway: PayoutGatewayName;
  start(input: ValidationInput, signal: AbortSignal): Promise<ValidationAnswer>;
  fetch(gatewayValidationId: string, signal: AbortSignal): Promise<ValidationAnswer>;
}

/**
 * A RazorpayX validation entity as our report (https://razorpay.com/docs/api/x/account-validation/entity):
 * `created` is under way; `completed` carries `results` (or, composite, `validation_results`) with
 * `account_status` active/invalid and `registered_name`; `failed` is a technical failure of the check.
 * "The completed status does not mean the bank account or VPA is valid" (the same page): only
 * `account_status: active` is.
 */
export function reportOf(entity: RazorpayxValidationEntity): ValidationReport {
  if (entity.status === 'completed') {
    const results = entity.validation_results ?? entity.results ?? {};
    const active = results.account_status === 'active' || results.account_status === 'valid';
    const score = results.name_match_score == null ? null : Number(results.name_match_score);
    return {
      status: 'completed',
      accountStatus: active ? 'active' : 'invalid',
      registeredName: results.registered_name?.trim() || null,
      nameMatchScore: score !== null && Number.isFinite(score) ? Math.max(0, Math.min(100, Math.round(score))) : null,
      details: results.details ?? entity.status_details?.description ?? null,
    };
  }
  if (entity.status === 'failed') {
    return { status: 'failed', reason: entity.status_details?.description || 'The bank could not check the account' };
  }
  return { status: 'pending' };
}

/** Sandbox: bank account numbers ending in 0000 and UPI ids starting with `invalid` do not exist. */
export function sandboxInvalid(accountType: PayoutAccountType, accountNo: string) {
  return accountType === 'bank' ? accountNo.endsWith('0000') : accountNo.startsWith('invalid');
}

/**
 * The sandbox (no account needed, deterministic; README "Payout account checks"): every check completes
 * at once; the registered name is the typed name in capitals; the numbers `sandboxInvalid` names are
 * invalid ("Beneficiary account does not exist (sandbox)").
 */
export function createSandboxValidator(): AccountValidator {
  function answer(input: Pick<ValidationInput, 'accountType' | 'accountNo' | 'accountName'>, id: string) {
    const invalid = sandboxInvalid(input.accountType, input.accountNo);
    const report: ValidationReport = invalid
      ? {
          status: 'completed',
          accountStatus: 'invalid',
          registeredName: null,
          nameMatchScore: null,
          details: 'Beneficiary account does not exist (sandbox)',
        }
      : {
          status: 'completed',
          accountStatus: 'active',
          registeredName: input.accountName.toUpperCase(),
          nameMatchScore: null,
          details: 'The beneficiary account is valid (sandbox)',
        };
    return { gatewayValidationId: id, fundAccountId: null, report, evidence: { sandbox: true, id } };
  }
  return {
    gateway: 'sandbox',
    async start(input) {
      return answer(input, `sandbox_${input.validationId}_${input.attempt}`);
    },
    async fetch() {
      throw new Error('the sandbox completes every check when it starts; there is nothing to fetch');
    },
  };
}
