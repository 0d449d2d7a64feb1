import { formatRupees, type PageQuery } from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import * as q from './referrals.queries';

/** "919876543210" → "+91 98•••••210"; "asha@example.com" → "as•••@example.com". */
export function maskUsername(username: string): string {
  const phone = /^91(\d{10})$/.exec(username);
  if (phone?.[1]) return `+91 ${phone[1].slice(0, 2)}•••••${phone[1].slice(-3)}`;
  const at = username.lastIndexOf('@');
  if (at > 0) return `${username.slice(0, Math.min(2, at))}•••${username.slice(at)}`;
  return `${username.slice(0, 2)}•••`;
}

export function createReferralsService({ db }: { db: Db }) {
  /**
   * The caller's invitees, newest first, with the level-1 rebates owed on each (available and still
   * pending apart), and totals (every invitee, the qualified ones, rebates of both levels).
   */
  async function inviteList(userId: number, { limit, cursor }: PageQuery) {
    const beforeId = decodeCursor(cursor, isRowId);
    const rows = await q.listInvitees(db, userId, limit + 1, beforeId);
    const page = keysetPage(rows, limit, (row) => row.id);
    const earned = await q.rebatesByInvitee(
      db,
      userId,
      page.items.map((r) => r.id),
    );
    const items = page.items.map((row) => ({
      id: row.id,
      username: maskUsername(row.username),
      joinedAt: row.createdAt.toISOString(),
      rebateEarned: formatRupees(earned.get(row.id)?.available ?? 0n),
      rebatePending: formatRupees(earned.get(row.id)?.pending ?? 0n),
    }));
    const rebates = await q.rebateTotals(db, userId);
    return {
      items,
      nextCursor: page.nextCursor,
      totals: {
        // The header counts what the list below it shows; the qualified ones are a figure of their own.
        count: await q.countInvitees(db, userId),
        rebateEarned: formatRupees(rebates.available),
        rebatePending: formatRupees(rebates.pending),
        qualified: await q.countQualifiedInvitees(db, userId),
      },
    };
  }

  return { inviteList };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
