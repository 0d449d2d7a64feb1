const listeners = new Set<() => void>();

/** Subscribes to "the server ended this session" (a 401 on a call that carried a token). */
export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function sessionEnded(): void {
  for (const listener of listeners) listener();
}
