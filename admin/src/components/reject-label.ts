import { decodeRejectReason, REJECT_PRESET_TEXT, type RejectPreset } from '@kamai/contract';
import { catalogueText } from '../i18n';

/** A preset reason in the operator's language (the user reads the same preset in theirs). */
export function presetLabel(preset: RejectPreset): string {
  return catalogueText(REJECT_PRESET_TEXT[preset]);
}

/**
 * A stored reason (`preset:<code>` and a note, or free text) as the console shows it. Apart from the
 * reason's fields (reject-reason.tsx), so a list that only shows reasons loads no form or select.
 */
export function rejectReasonLabel(stored: string | null | undefined): string {
  if (!stored) return '';
  const { preset, note } = decodeRejectReason(stored);
  if (!preset) return note;
  return note ? `${presetLabel(preset)} (${note})` : presetLabel(preset);
}
