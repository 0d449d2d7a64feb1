import { paths } from '../config/paths';

const STORAGE_KEY = 'kamai.invite';

/** The invite code from an invite link, kept for this tab until the visitor registers. */
export function pendingInvite(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberInvite(code: string): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Without storage the code is still passed to the register form that the link opens.
  }
}

export function forgetInvite(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

/** The link a user shares: it opens Home with the register form and this code filled in. */
export function inviteLink(code: string): string {
  return `${location.origin}${paths.home}?invite=${encodeURIComponent(code)}`;
}
