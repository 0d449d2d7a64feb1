import { type AccountVerification, type ComparedName, nameMatchScore } from '@kamai/contract';
import type { OtherName, PayeeCheck } from './account-validation.queries';

type NamedCheck = Pick<PayeeCheck, 'registeredName' | 'nameMatchScore' | 'requestedBy' | 'accountName'>;

/**
 * The match of a withdrawal's typed name with the bank's name for its account (0-100), or RazorpayX's
 * name_match_score for the name it was sent, whichever is higher.
 */
export function typedNameMatch(w: { userId: number; accountName: string }, v: NamedCheck) {
  const typed = nameMatchScore(v.registeredName ?? '', w.accountName);
  const sameName = v.nameMatchScore !== null && v.requestedBy === w.userId && v.accountName === w.accountName;
  return sameName ? Math.max(typed, v.nameMatchScore ?? 0) : typed;
}

/** The match of the bank's name with one of the user's other accounts: its bank name, else its typed name. */
export const otherNameMatch = (v: NamedCheck, other: OtherName) =>
  nameMatchScore(v.registeredName ?? '', other.registeredName ?? other.accountName);

/**
 * The name match of a withdrawal's account (0-100): against the name typed for it (`typedNameMatch`),
 * and never above the match with any other name the user gave or the bank gave for their other
 * accounts. Below `accountValidation.nameMatchMin` it is `risk_bank_name_mismatch`.
 */
export function nameMatchOf(w: { userId: number; accountName: string }, v: NamedCheck, others: OtherName[]) {
  let score = typedNameMatch(w, v);
  for (const other of others) score = Math.min(score, otherNameMatch(v, other));
  return score;
}

/**
 * What the review queue shows of a withdrawal's names, each match judged here against `nameMatchMin`
 * (the console only colours): the typed name's match and whether it is low, and each other account's
 * names with their match and whether it is low. The lowest of them is the withdrawal's match
 * (`nameMatchOf`), so a low one is what sets off `risk_bank_name_mismatch`. Names are judged only for a
 * verified account.
 */
export function namesCompared(
  w: { userId: number; accountName: string },
  v: NamedCheck,
  verification: AccountVerification,
  others: OtherName[],
  nameMatchMin: number,
): { nameMatch: number | null; nameMatchLow: boolean; otherNames: ComparedName[] } {
  if (!v.registeredName) return { nameMatch: null, nameMatchLow: false, otherNames: [] };
  const nameMatch = typedNameMatch(w, v);
  if (verification.state !== 'verified') return { nameMatch, nameMatchLow: false, otherNames: [] };
  return {
    nameMatch,
    nameMatchLow: nameMatch < nameMatchMin,
    otherNames: others.map((other) => {
      const match = otherNameMatch(v, other);
      return {
        accountName: other.accountName,
        registeredName: other.registeredName,
        nameMatch: match,
        nameMatchLow: match < nameMatchMin,
      };
    }),
  };
}
