import { z } from 'zod';
import type { MessageKey } from './catalogue';
import type { Locale } from './locales';
import { translate } from './messages';

/**
 * Reasons an operator picks when rejecting a withdrawal or a task proof. Each has a catalogue text
 * in every locale, so the user reads the reason in their own language; an optional note adds detail.
 */
export const REJECT_PRESETS = [
  'account_mismatch',
  'account_invalid',
  'duplicate',
  'suspicious_activity',
  'limit_exceeded',
  'proof_unclear',
  'proof_wrong_task',
  'proof_incomplete',
  'other',
  /** Set by the server alone: the user deleted the account while the proof waited for review. */
  'account_deleted',
] as const;
export type RejectPreset = (typeof REJECT_PRESETS)[number];

/** Presets that fit each review (the console offers these). */
export const WITHDRAWAL_REJECT_PRESETS: readonly RejectPreset[] = [
  'account_mismatch',
  'account_invalid',
  'duplicate',
  'suspicious_activity',
  'limit_exceeded',
  'other',
];
export const TASK_PROOF_REJECT_PRESETS: readonly RejectPreset[] = [
  'proof_unclear',
  'proof_wrong_task',
  'proof_incomplete',
  'duplicate',
  'suspicious_activity',
  'other',
];

export const REJECT_PRESET_TEXT = {
  account_mismatch: 'reject_preset_account_mismatch',
  account_invalid: 'reject_preset_account_invalid',
  duplicate: 'reject_preset_duplicate',
  suspicious_activity: 'reject_preset_suspicious_activity',
  limit_exceeded: 'reject_preset_limit_exceeded',
  proof_unclear: 'reject_preset_proof_unclear',
  proof_wrong_task: 'reject_preset_proof_wrong_task',
  proof_incomplete: 'reject_preset_proof_incomplete',
  other: 'reject_preset_other',
  account_deleted: 'reject_preset_account_deleted',
} as const satisfies Record<RejectPreset, MessageKey>;

/** What an operator may pick: every preset but the ones only the server sets. */
const OPERATOR_REJECT_PRESETS = REJECT_PRESETS.filter((preset) => preset !== 'account_deleted') as [
  RejectPreset,
  ...RejectPreset[],
];
export const rejectPresetField = z.enum(OPERATOR_REJECT_PRESETS, { error: 'validation_failed' });

/**
 * How a rejection is stored in the existing `reason` columns: `preset:<code>` alone, or followed by a
 * newline and the operator's note. A reason without the prefix is free text (older rows).
 */
const PREFIX = 'preset:';

export function encodeRejectReason(preset: RejectPreset | undefined, note: string): string {
  if (!preset) return note;
  return note ? `${PREFIX}${preset}\n${note}` : `${PREFIX}${preset}`;
}

export function decodeRejectReason(stored: string): { preset: RejectPreset | null; note: string } {
  if (!stored.startsWith(PREFIX)) return { preset: null, note: stored };
  const newline = stored.indexOf('\n');
  const code = stored.slice(PREFIX.length, newline === -1 ? undefined : newline);
  const note = newline === -1 ? '' : stored.slice(newline + 1);
  const preset = (REJECT_PRESETS as readonly string[]).includes(code) ? (code as RejectPreset) : null;
  return preset ? { preset, note } : { preset: null, note: stored };
}

/** The reason as a reader of `locale` sees it: the preset in their language, then the note if any. */
export function rejectReasonText(stored: string | null, locale: Locale): string | null {
  if (stored === null) return null;
  const { preset, note } = decodeRejectReason(stored);
  if (!preset) return note;
  const text = translate(locale, REJECT_PRESET_TEXT[preset]);
  return note ? `${text} (${note})` : text;
}
