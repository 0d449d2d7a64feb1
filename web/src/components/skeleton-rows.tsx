import { useOnline } from '../lib/use-online';
import { OfflineState } from './offline-state';

/**
 * Grey placeholder rows shown while a list or card loads (CSS only, no JavaScript animation). Offline,
 * a page never loaded on this device would wait for ever (its request paused until the connection is
 * back): it says so instead, and loads by itself once online.
 */
export function SkeletonRows({ rows = 4, label }: { rows?: number; label: string }) {
  const online = useOnline();
  if (!online) return <OfflineState />;
  return (
    <div className="stack skeleton-rows" role="status" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder.
        <div key={index} className="stack skeleton-row" aria-hidden>
          <span className="skeleton-line skeleton-line-wide" />
          <span className="skeleton-line skeleton-line-short" />
        </div>
      ))}
    </div>
  );
}
