import { useState } from 'react';

export interface CursorPages {
  cursor: string | undefined;
  page: number;
  hasPrevious: boolean;
  next: (cursor: string) => void;
  previous: () => void;
  reset: () => void;
}

/**
 * Server keyset pagination: a stack of the cursors that led to the current page. `reset` on a new
 * filter; `next` with the page's `nextCursor`; `previous` pops back.
 */
export function useCursorPages(filterKey: string): CursorPages {
  const [state, setState] = useState<{ key: string; stack: string[] }>({ key: filterKey, stack: [] });
  const stack = state.key === filterKey ? state.stack : [];
  return {
    cursor: stack.at(-1),
    page: stack.length + 1,
    hasPrevious: stack.length > 0,
    next: (cursor: string) => setState({ key: filterKey, stack: [...stack, cursor] }),
    previous: () => setState({ key: filterKey, stack: stack.slice(0, -1) }),
    reset: () => setState({ key: filterKey, stack: [] }),
  };
}
