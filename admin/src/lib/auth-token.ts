import { useSyncExternalStore } from 'react';

const STORAGE_KEY = 'kamai.admin.token';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let token = read();

function emit(): void {
  for (const listener of listeners) listener();
}

export function getToken(): string | null {
  return token;
}

export function setToken(value: string): void {
  token = value;
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // Without storage the session lasts until the tab closes.
  }
  emit();
}

export function clearToken(): void {
  token = null;
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to remove.
  }
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Logging in or out in another tab changes this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return;
    token = event.newValue;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The session token, re-rendering on login and logout. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribe, getToken);
}

export function useIsLoggedIn(): boolean {
  return useToken() !== null;
}
