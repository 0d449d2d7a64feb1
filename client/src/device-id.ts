import { DEVICE_ID_STORAGE_KEY, isDeviceId } from '@kamai/contract/constants';

let cached: string | undefined;

/** 32 hex digits; randomUUID only exists in secure contexts, getRandomValues everywhere. */
function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * This browser's device id: made once and kept in localStorage (shared by the web app and the
 * console, which live on one origin), sent with every request so registration and login can record
 * it for the reviewers' fraud signals. Without storage it lasts as long as the page.
 */
export function deviceId(): string {
  if (cached) return cached;
  try {
    const stored = localStorage.getItem(DEVICE_ID_STORAGE_KEY);
    if (isDeviceId(stored)) {
      cached = stored;
      return stored;
    }
  } catch {
    // No storage: a fresh id for this page.
  }
  cached = newId();
  try {
    localStorage.setItem(DEVICE_ID_STORAGE_KEY, cached);
  } catch {
    // Kept in memory only.
  }
  return cached;
}

/** Forgets the cached id (tests start each case from storage). */
export function resetDeviceIdCache(): void {
  cached = undefined;
}
