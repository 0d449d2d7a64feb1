import { PHONE_COUNTRY_CODE } from './constants';
import { INDIAN_MOBILE_RE } from './formats';

/**
 * A stored phone username ("919876543210") as people write it: "+91 98765 43210". Anything else (an
 * e-mail, an anonymised name) is answered unchanged.
 */
export function displayPhone(value: string): string {
  if (value.length === 12 && value.startsWith(PHONE_COUNTRY_CODE) && INDIAN_MOBILE_RE.test(value.slice(2))) {
    return `+${PHONE_COUNTRY_CODE} ${value.slice(2, 7)} ${value.slice(7)}`;
  }
  return value;
}

/**
 * The referral rate is stored in basis points (1 bp = 0.01 %, the unit the ledger computes with); people
 * enter and read it as a percentage. These two are the only conversions, so the console and the
 * server agree to the basis point.
 */
export function basisPointsToPercent(bps: number): number {
  return bps / 100;
}

/** A percentage as entered ("2.5") → basis points (250), rounded to the nearest whole basis point. */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}
