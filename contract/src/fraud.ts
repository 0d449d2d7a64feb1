import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { isDeviceId } from './formats';
import { rupeeAmountField } from './money';

/**
 * Header the apps send on every request: a random id the browser keeps in localStorage, made once
 * (crypto.randomUUID). Registration and login record it beside the address and the User-Agent.
 * The header, the storage key and the check live in zod-free modules, so the API client can read them
 * from `@kamai/contract/constants` without this file's schemas.
 */
export { DEVICE_ID_HEADER } from './constants';
export { DEVICE_ID_STORAGE_KEY, isDeviceId } from './formats';

/** The header's value when it looks like an id a client made, else null: junk is ignored, never refused. */
export function deviceIdOf(value: unknown): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return isDeviceId(text) ? text.toLowerCase() : null;
}

/** Kept from a User-Agent header; longer ones are cut (they are shown to reviewers, never parsed). */
export const USER_AGENT_MAX = 300;

/**
 * The signals a withdrawal is scored on when it is requested (docs/decisions/fraud-signals.md). Each has a
 * weight in the `risk` settings; the score is the sum of the weights of the signals that fired, at
 * most RISK_SCORE_MAX.
 */
export const RISK_SIGNALS = [
  'shared_payout_account',
  'same_device_as_inviter',
  'same_address_as_inviter',
  'same_device_as_fellow_invitee',
  'same_address_as_fellow_invitee',
  'idle_invitees',
  'invite_reward_balance',
  'quick_first_withdrawal',
  'device_id_missing_or_rotated',
  /** The bank's registered name is far from the names the user gave (scored when the account is verified). */
  'bank_name_mismatch',
] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];
export const RISK_SCORE_MAX = 100;

/** Catalogue key of each signal's reason (translated in the console's review queue). */
export const RISK_REASON_KEYS = {
  shared_payout_account: 'risk_shared_payout_account',
  same_device_as_inviter: 'risk_same_device_as_inviter',
  same_address_as_inviter: 'risk_same_address_as_inviter',
  same_device_as_fellow_invitee: 'risk_same_device_as_fellow_invitee',
  same_address_as_fellow_invitee: 'risk_same_address_as_fellow_invitee',
  idle_invitees: 'risk_idle_invitees',
  invite_reward_balance: 'risk_invite_reward_balance',
  quick_first_withdrawal: 'risk_quick_first_withdrawal',
  device_id_missing_or_rotated: 'risk_device_id_missing_or_rotated',
  bank_name_mismatch: 'risk_bank_name_mismatch',
} as const satisfies Record<RiskSignal, MessageKey>;
export type RiskReasonKey = (typeof RISK_REASON_KEYS)[RiskSignal];
const REASON_KEYS = Object.values(RISK_REASON_KEYS) as [RiskReasonKey, ...RiskReasonKey[]];

/** A withdrawal's risk as the review queue shows it. */
export const withdrawalRisk = z.object({
  score: z.number().int(),
  reasons: z.array(z.enum(REASON_KEYS)),
});
export type WithdrawalRisk = z.infer<typeof withdrawalRisk>;

/** When an invitee counts as a friend for the invite tasks and the referral totals. */
export const QUALIFIED_INVITE_RULES = ['registration', 'verified_phone', 'first_task'] as const;
export type QualifiedInviteRule = (typeof QUALIFIED_INVITE_RULES)[number];

/** Defaults of the `risk` settings (weights are points out of RISK_SCORE_MAX; amounts paise). */
export const RISK_DEFAULTS = {
  weights: {
    shared_payout_account: 40,
    same_device_as_inviter: 35,
    same_address_as_inviter: 15,
    same_device_as_fellow_invitee: 35,
    same_address_as_fellow_invitee: 10,
    idle_invitees: 20,
    invite_reward_balance: 25,
    quick_first_withdrawal: 15,
    // No device id at registration (none sent, junk, or a new one from the address and browser of an
    // invite neighbour's registration): the same-device signals cannot see such a client.
    device_id_missing_or_rotated: 25,
    bank_name_mismatch: 40,
  } satisfies Record<RiskSignal, number>,
  /** `idle_invitees` fires from this many invitees who did nothing but register. */
  idleInvitees: 2,
  /** `invite_reward_balance` fires when invite rewards are more than this share (basis points) of all income. */
  inviteShareBps: 5_000,
  /** `quick_first_withdrawal` fires for a first withdrawal within this many hours of registering. */
  quickWithdrawalHours: 24,
  /** A withdrawal above this (paise) needs two different reviewers' approvals: ₹10,000. */
  secondApprovalAbovePaise: 1_000_000,
  /** A credit (`admin/revenue/add`) above this (paise) needs a second admin's approval: ₹10,000. */
  creditApprovalAbovePaise: 1_000_000,
  qualifiedInvite: 'first_task' as QualifiedInviteRule,
};
export type RiskSettingsStored = typeof RISK_DEFAULTS;

const weight = z.coerce
  .number({ error: 'validation_failed' })
  .int('validation_failed')
  .min(0, 'validation_failed')
  .max(RISK_SCORE_MAX, 'validation_failed');

/** The `risk` settings as the API shows them (amounts as rupee strings). */
export const riskSettings = z.object({
  weights: z.object(
    Object.fromEntries(RISK_SIGNALS.map((s) => [s, z.number().int()])) as Record<RiskSignal, z.ZodNumber>,
  ),
  idleInvitees: z.number().int(),
  inviteShareBps: z.number().int(),
  quickWithdrawalHours: z.number().int(),
  secondApprovalAbove: z.string(),
  creditApprovalAbove: z.string(),
  qualifiedInvite: z.enum(QUALIFIED_INVITE_RULES),
});
export type RiskSettings = z.infer<typeof riskSettings>;

/** A change of the `risk` settings; fields left out stay. */
export const riskSettingsChange = z.object({
  weights: z
    .object(
      Object.fromEntries(RISK_SIGNALS.map((s) => [s, weight.optional()])) as Record<
        RiskSignal,
        z.ZodOptional<typeof weight>
      >,
    )
    .partial()
    .optional(),
  idleInvitees: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(1, 'validation_failed')
    .max(1000, 'validation_failed')
    .optional(),
  inviteShareBps: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(0, 'validation_failed')
    .max(10_000, 'validation_failed')
    .optional(),
  quickWithdrawalHours: z.coerce
    .number({ error: 'validation_failed' })
    .int('validation_failed')
    .min(0, 'validation_failed')
    .max(24 * 365, 'validation_failed')
    .optional(),
  secondApprovalAbove: rupeeAmountField.optional(),
  creditApprovalAbove: rupeeAmountField.optional(),
  qualifiedInvite: z.enum(QUALIFIED_INVITE_RULES, { error: 'validation_failed' }).optional(),
});
export type RiskSettingsChange = z.output<typeof riskSettingsChange>;

/** A withdrawal's approvals: how many it needs, and the first one when two are needed and one is in. */
export const withdrawalApprovals = z.object({
  required: z.number().int(),
  first: z.object({ reviewerId: z.number().int(), at: z.string() }).nullable(),
});
