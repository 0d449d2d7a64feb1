import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Status = 'pulling' | 'canRelease' | 'refreshing' | 'complete';

/** antd-mobile's defaults: a 40 px head, released past 60 px, pulled at most 200 px with resistance. */
const HEAD_PX = 40;
const THRESHOLD_PX = 60;
const MAX_PX = HEAD_PX * 5;
const COMPLETE_MS = 500;

/** antd-mobile's rubber band: follows the finger at first, then resists, never past MAX_PX. */
function rubberband(distance: number): number {
  return (distance * MAX_PX * 0.5) / (MAX_PX + 0.5 * distance);
}

/** Whether the touch started on content scrolled to its top, so pulling down means refresh, not scroll. */
function atTop(target: EventTarget | null): boolean {
  if (window.scrollY > 0) return false;
  for (let node = target instanceof Element ? target : null; node; node = node.parentElement) {
    if (node.scrollTop > 0) return false;
  }
  return true;
}

/**
 * Pull to refresh with antd-mobile's look (its class names, sizes and texts in the app's language),
 * without its animation and gesture libraries (react-spring and use-gesture, ~23 KB gzip on the first
 * page): touch events and a CSS transition do the same for this one vertical gesture.
 */
export function PullRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [status, setStatus] = useState<Status>('pulling');
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;
  const busy = status === 'refreshing' || status === 'complete';

  useEffect(() => {
    const node = element.current;
    if (!node || busy) return;
    let startY: number | null = null;
    let pulled = 0;
    const start = (event: TouchEvent) => {
      const touch = event.touches[0];
      startY = event.touches.length === 1 && touch && atTop(event.target) ? touch.clientY : null;
      pulled = 0;
    };
    const move = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (startY === null || !touch) return;
      const distance = touch.clientY - startY;
      if (distance <= 0 && pulled === 0) {
        startY = null; // a scroll up: leave it to the browser
        return;
      }
      if (event.cancelable) event.preventDefault();
      pulled = Math.max(rubberband(Math.max(distance, 0)), 0);
      setDragging(true);
      setHeight(pulled);
      setStatus(pulled > THRESHOLD_PX ? 'canRelease' : 'pulling');
    };
    const end = () => {
      if (startY === null) return;
      startY = null;
      setDragging(false);
      if (pulled <= THRESHOLD_PX) {
        setHeight(0);
        return;
      }
      setHeight(HEAD_PX);
      setStatus('refreshing');
      refresh
        .current()
        .then(() => {
          setStatus('complete');
          return new Promise((done) => setTimeout(done, COMPLETE_MS));
        })
        .catch(() => undefined)
        .finally(() => {
          setHeight(0);
          setStatus('pulling');
        });
    };
    node.addEventListener('touchstart', start, { passive: true });
    node.addEventListener('touchmove', move, { passive: false });
    node.addEventListener('touchend', end);
    node.addEventListener('touchcancel', end);
    return () => {
      node.removeEventListener('touchstart', start);
      node.removeEventListener('touchmove', move);
      node.removeEventListener('touchend', end);
      node.removeEventListener('touchcancel', end);
    };
  }, [busy]);

  const text = {
    pulling: t('pull.pulling'),
    canRelease: t('pull.release'),
    refreshing: t('pull.refreshing'),
    complete: t('pull.done'),
  }[status];
  return (
    <div className="adm-pull-to-refresh" ref={element}>
      <div
        className={dragging ? 'adm-pull-to-refresh-head' : 'adm-pull-to-refresh-head pull-refresh-settling'}
        style={{ height }}
        aria-live="polite"
      >
        {height > 0 && (
          <div className="adm-pull-to-refresh-head-content row" style={{ height: HEAD_PX }}>
            {text}
          </div>
        )}
      </div>
      <div className="adm-pull-to-refresh-content">{children}</div>
    </div>
  );
}
