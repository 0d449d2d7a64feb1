/**
 * The WebOTP API (https://wicg.github.io/web-otp/): the browser reads the code from an SMS whose last
 * line is `@<this host> #<code>` (the server ends every code SMS so) and, with the user's consent,
 * hands it to the page. Chrome on Android has it; elsewhere (iOS Safari offers the code above the
 * keyboard through `autocomplete="one-time-code"` instead) the user types the code.
 */

/** What `navigator.credentials.get({ otp })` resolves with (not in TypeScript's DOM types). */
interface OtpCredential extends Credential {
  readonly code: string;
}

export function webOtpSupported(): boolean {
  return typeof window !== 'undefined' && 'OTPCredential' in window && typeof navigator.credentials?.get === 'function';
}

/**
 * The code of the next SMS meant for this page, or null: no WebOTP here, the wait was aborted (the
 * form was sent or closed), the user declined, or no such SMS came in time. Never throws: the typed
 * path is always there.
 */
export async function receiveSmsCode(signal: AbortSignal): Promise<string | null> {
  if (!webOtpSupported()) return null;
  try {
    const options = { otp: { transport: ['sms'] }, signal } as CredentialRequestOptions;
    const credential = (await navigator.credentials.get(options)) as OtpCredential | null;
    return signal.aborted ? null : (credential?.code ?? null);
  } catch {
    return null;
  }
}
