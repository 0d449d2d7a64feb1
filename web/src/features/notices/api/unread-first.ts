import { useEffect, useSyncExternalStore } from 'react';
import { getToken } from '../../../lib/api';
import { seedQueryClient } from '../../../lib/query-later';
import { getUnread, unreadQueryOptions } from './unread-query';

// The My tab's unread count before TanStack Query has loaded (~13 KB gzip that Home's first screen does
// not need): one plain request per session, handed to the query cache when it loads, as Home's first
// reads are (app/routes/home-content.tsx). From then on the badge is the query-backed one, which the
// inbox's reads and marks update.

type Count = Awaited<ReturnType<typeof getUnread>>;
interface FirstUnread {
  token: string;
  count: number;
}

let first: FirstUnread | undefined;
let asked: string | undefined;
const listeners = new Set<() => void>();

function start(token: string): void {
  if (asked === token) return;
  asked = token;
  const request = getUnread();
  let landed: { data: Count; at: number } | undefined;
  request.then(
    (data) => {
      landed = { data, at: Date.now() };
      if (asked !== token) return;
      first = { token, count: data.count };
      for (const listener of listeners) listener();
    },
    () => undefined,
  );
  seedQueryClient((client) => {
    // Only for the session that asked: the client can load after a logout and another login.
    if (getToken() !== token) return;
    const options = unreadQueryOptions();
    if (landed) client.setQueryData(options.queryKey, landed.data, { updatedAt: landed.at });
    else void client.prefetchQuery({ ...options, queryFn: () => request, retry: false });
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The unread count of `token`'s session from the first plain read (0 until it lands or if it failed).
 * `live`: the query client has loaded, so the query-backed badge asks instead.
 */
export function useFirstUnread(token: string, live: boolean): number {
  useEffect(() => {
    if (!live) start(token);
  }, [token, live]);
  const read = useSyncExternalStore(subscribe, () => first);
  return read?.token === token ? read.count : 0;
}
