/** Grey placeholder rows shown while a list or card loads (CSS only, no JavaScript animation). */
export function SkeletonRows({ rows = 4, label }: { rows?: number; label: string }) {
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
