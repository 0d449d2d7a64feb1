import { useSyncExternalStore } from 'react';

/** antd's `md` breakpoint: from 768 px the console has its sidebar and its tables; below, a drawer and cards. */
const WIDE = '(min-width: 768px)';

const query = () => window.matchMedia(WIDE);

function subscribe(listener: () => void) {
  const list = query();
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

/** Whether the viewport is at least 768 px wide. */
export function isWide(): boolean {
  return query().matches;
}

/**
 * Whether the viewport is at least 768 px wide, right from the first render: antd's `Grid.useBreakpoint`
 * answers nothing until its effect ran, so a phone would first render (and style) the wide layout.
 */
export function useWide(): boolean {
  return useSyncExternalStore(subscribe, isWide);
}
