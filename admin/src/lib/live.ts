import { useEffect, useSyncExternalStore } from 'react';

/**
 * How often a list of work asks again while the operator looks at it
 * (docs/decisions/console-queues-refresh.md): a decision by another operator shows within this.
 */
export const LIST_REFRESH_MS = 15_000;

/**
 * Holds on the refresh: while any is held (a dialog, drawer or confirmation about a row is open) no
 * list refreshes by itself, so the row the operator is deciding on neither moves nor vanishes under them.
 */
const holds = new Set<symbol>();
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Pauses every list's refresh until the returned release is called (imperative dialogs: `modal.confirm`). */
export function holdRefresh(): () => void {
  const hold = Symbol('hold');
  holds.add(hold);
  emit();
  return () => {
    if (holds.delete(hold)) emit();
  };
}

/** Pauses the lists while `open` (a page's dialog, drawer or popconfirm). */
export function usePauseWhile(open: boolean) {
  useEffect(() => (open ? holdRefresh() : undefined), [open]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRefreshPaused(): boolean {
  return useSyncExternalStore(subscribe, () => holds.size > 0);
}

/**
 * The options that make a list query live: asked again every LIST_REFRESH_MS while the tab is shown
 * (TanStack Query skips an interval while the document is hidden) and at once when it is shown again;
 * neither while a hold is on.
 */
export function useLiveList(): { refetchInterval: number | false; refetchOnWindowFocus: boolean } {
  const paused = useRefreshPaused();
  return { refetchInterval: paused ? false : LIST_REFRESH_MS, refetchOnWindowFocus: !paused };
}
