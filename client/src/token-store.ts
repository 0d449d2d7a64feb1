/** The session token of one app, kept in localStorage under the app's own key. */
export interface TokenStore {
  get(): string | null;
  set(value: string): void;
  clear(): void;
  /** Calls `listener` on every change, also one made in another tab; answers the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * The web app and the console keep their sessions under different keys, so an operator can be logged
 * into both. The functions close over the store (no `this`), so they can be passed around on their own
 * (e.g. to React's useSyncExternalStore).
 */
export function createTokenStore(storageKey: string): TokenStore {
  const listeners = new Set<() => void>();

  function read(): string | null {
    try {
      return localStorage.getItem(storageKey);
    } catch {
      return null;
    }
  }

  let token = read();

  function emit(): void {
    for (const listener of listeners) listener();
  }

  return {
    get: () => token,
    set(value) {
      token = value;
      try {
        localStorage.setItem(storageKey, value);
      } catch {
        // Without storage the session lasts until the tab closes.
      }
      emit();
    },
    clear() {
      token = null;
      try {
        localStorage.removeItem(storageKey);
      } catch {
        // Nothing stored, nothing to remove.
      }
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      // Logging in or out in another tab changes this one too.
      const onStorage = (event: StorageEvent) => {
        if (event.key !== storageKey) return;
        token = event.newValue;
        listener();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
  };
}
