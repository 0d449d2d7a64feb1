import type { StaleCurrent, StaleKey } from '@kamai/contract';
import type { Executor } from '../db/client';
import { AppError } from './errors';
import { deciderName } from './stale.queries';

/**
 * The refusal of an action someone else's decision made stale (another operator, the user, the
 * gateway): its catalogue key with `data.current`, what the item is now, who decided it and when, so
 * the console explains instead of failing (docs/decisions/console-queues-refresh.md). Read inside the
 * caller's transaction, under the row lock that found the item decided.
 */
export async function staleRefusal(
  db: Executor,
  key: StaleKey,
  found: { state: string; byId: number | null; at: Date | null },
): Promise<AppError> {
  const current: StaleCurrent = {
    state: found.state,
    by: await deciderName(db, found.byId),
    at: found.at?.toISOString() ?? null,
  };
  return new AppError(key, { current });
}
