import { formatRupees, type PageQuery, type RebateSettings } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor, isRowId } from '../../platform/cursor';
import { getSetting, putSetting } from '../../platform/settings.queries';
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
  /** The caller's invitees, newest first, with the level-1 rebate earned from each, and totals (qualified invitees). */
  async function inviteList(userId: number, { limit, cursor }: PageQuery) {
    const beforeId = decodeCursor(cursor, isRowId);
    const rows = await q.listInvitees(db, userId, limit + 1, beforeId);
    const page = rows.slice(0, limit);
    const earned = await q.rebatesByInvitee(
      db,
      userId,
      page.map((r) => r.id),
    );
    const items = page.map((row) => ({
      id: row.id,
      username: maskUsername(row.username),
      joinedAt: row.createdAt.toISOString(),
      rebateEarned: formatRupees(earned.get(row.id) ?? 0n),
    }));
    const last = items.at(-1);
    return {
      items,
      nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null,
      totals: {
        count: await q.countQualifiedInvitees(db, userId),
        rebateEarned: formatRupees(await q.rebateTotal(db, userId)),
      },
    };
  }

  function rebateGet(): Promise<RebateSettings> {
    return getSetting(db, 'rebate');
  }

  async function rebateSet(actor: { id: number; requestId: string }, rates: RebateSettings) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'rebate', { forUpdate: true });
      const after = { level1Bps: rates.level1Bps, level2Bps: rates.level2Bps };
      await putSetting(tx, 'rebate', after);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'rebate.set',
        target: 'setting:rebate',
        before,
        after,
        requestId: actor.requestId,
      });
      return after;
    });
  }

  return { inviteList, rebateGet, rebateSet };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;
