import type { AdminQueueCounts, QueueName } from '@kamai/contract';
import { useEffect } from 'react';

/** The count of one list of work beside its menu label; red when a complaint is past a deadline. */
export function QueueBadge({ queue, counts }: { queue: QueueName; counts: AdminQueueCounts | undefined }) {
  const count = counts?.[queue];
  if (!count) return null;
  const overdue = queue === 'complaints' && (counts?.complaintsOverdue ?? 0) > 0;
  return (
    <span
      className={`menu-count${overdue ? ' menu-count-overdue' : ''}`}
      data-testid={queue === 'complaints' ? 'complaints-open' : `queue-count-${queue}`}
    >
      {count}
    </span>
  );
}

/**
 * The tab's title: "(3) Withdrawal review · Kamai console". The count is the page's own queue; on a page
 * that is no queue (the dashboard, settings) it is the sum of every queue the role acts on, so a tab
 * left open anywhere still says work is waiting.
 */
export function useTabTitle(page: string, brand: string, queue: QueueName | undefined, counts?: AdminQueueCounts) {
  useEffect(() => {
    const waiting = !counts
      ? 0
      : queue
        ? (counts[queue] ?? 0)
        : (['withdrawals', 'accountChecks', 'proofs', 'mismatches', 'complaints'] as const).reduce(
            (sum, name) => sum + (counts[name] ?? 0),
            0,
          );
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${page ? `${page} · ` : ''}${brand}`;
  }, [page, brand, queue, counts]);
}
