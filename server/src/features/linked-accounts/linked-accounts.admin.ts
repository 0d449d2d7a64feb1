import { formatRupees, type LinkedStatus, type Locale, type PageQuery, parseRupees } from '@kamai/contract';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { type ControlKind, diffControl, onlyTightens, proposeChange } from '../../platform/control-changes';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import { getSetting, putSetting } from '../../platform/settings.queries';
import { findUserById } from '../users';
import * as q from './linked-accounts.queries';
import { moveTo, toItem } from './linked-accounts.view';

/**
 * Operators' side: the list of every linked number, and the sandbox provider's controls (complete a
 * pairing, set a status), which stand in for the events a real provider would report.
 */
export function createLinkedAccountsAdmin({ db, now }: { db: Db; now: () => Date }) {
  async function adminItem(tx: Tx | Db, row: q.LinkedAccountRow, at: Date, locale: Locale) {
    const user = await findUserById(tx, row.userId);
    const pending = await q.phonesWithPendingCode(tx, [row.phone], at, row.userId);
    return {
      ...toItem(row, { now: at, locale, pairingPending: pending.has(row.phone) }),
      userId: row.userId,
      username: user?.username ?? '',
    };
  }

  async function list(query: PageQuery & { status?: LinkedStatus; userId?: number; phone?: string }, locale: Locale) {
    const at = now();
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listAccounts(db, { ...query, beforeId, limit: query.limit + 1 });
    const page = keysetPage(rows, query.limit, (row) => row.account.id);
    const pending = await q.phonesWithPendingCode(
      db,
      page.items.map((r) => r.account.phone),
      at,
    );
    const items = page.items.map(({ account, username }) => ({
      ...toItem(account, { now: at, locale, pairingPending: pending.has(account.phone) }),
      userId: account.userId,
      username,
    }));
    return { items, nextCursor: page.nextCursor };
  }

  async function accountId(phone: string) {
    const row = await q.findAccountByPhone(db, phone);
    if (!row) throw new AppError('linked_account_not_found');
    return row.id;
  }

  /**
   * Completes an open pairing as if the phone had confirmed it: a code pairing of `phone` (the newest,
   * or exactly `code`), or the QR pairing `qrId` scanned by `phone`. The number becomes the pairing
   * user's and goes Online; a number already linked to another user is refused.
   */
  async function complete(actor: Actor, input: { phone: string; code?: string; qrId?: string }, locale: Locale) {
    const at = now();
    return db.transaction(async (tx) => {
      const pairing = input.qrId
        ? await q.findQrPairing(tx, input.qrId, { forUpdate: true })
        : await q.lockOpenCodePairing(tx, input.phone, at, input.code);
      if (!pairing || pairing.completedAt || pairing.expiresAt <= at) throw new AppError('pairing_not_found');
      // An Online number earns hourly income: no operator brings his own online (separation of duties).
      if (pairing.userId === actor.id) throw new AppError('cannot_change_own_linked_account');

      let row = await q.findAccountByPhone(tx, input.phone, { forUpdate: true });
      if (row && row.userId !== pairing.userId) throw new AppError('phone_linked_elsewhere');
      await q.completePairings(tx, pairing, input.phone, at);
      if (!row) {
        row = await q.insertAccount(tx, {
          userId: pairing.userId,
          phone: input.phone,
          status: 'online',
          linkedAt: at,
          onlineSince: at,
          createdAt: at,
        });
        // Inserted meanwhile by a parallel completion: it holds the number now.
        if (!row) throw new AppError('phone_linked_elsewhere');
        await q.insertEvent(tx, {
          accountId: row.id,
          kind: 'linked',
          toStatus: 'online',
          actor: 'operator',
          method: pairing.method,
          createdAt: at,
        });
      } else {
        const from = row.status;
        row = await q.updateAccount(tx, row.id, { ...moveTo(row, 'online', at), linkedAt: at });
        await q.insertEvent(tx, {
          accountId: row.id,
          kind: 'relinked',
          fromStatus: from,
          toStatus: 'online',
          actor: 'operator',
          method: pairing.method,
          createdAt: at,
        });
      }
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'ws.complete',
        // By the row's id, not the number: the audit log outlives a deleted account, the number must not.
        target: `linked-account:${row.id}`,
        after: { userId: pairing.userId, method: pairing.method },
        requestId: actor.requestId,
      });
      return adminItem(tx, row, at, locale);
    });
  }

  /** Sets any status of the spec's list, as the provider would report it; a no-op when unchanged. */
  async function setStatus(actor: Actor, input: { phone: string; status: LinkedStatus }, locale: Locale) {
    const at = now();
    return db.transaction(async (tx) => {
      const row = await q.findAccountByPhone(tx, input.phone, { forUpdate: true });
      if (!row) throw new AppError('linked_account_not_found');
      if (row.userId === actor.id) throw new AppError('cannot_change_own_linked_account');
      if (row.status === input.status) return adminItem(tx, row, at, locale);
      const updated = await q.updateAccount(tx, row.id, moveTo(row, input.status, at));
      await q.insertEvent(tx, {
        accountId: row.id,
        kind: 'status_changed',
        fromStatus: row.status,
        toStatus: input.status,
        actor: 'operator',
        createdAt: at,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'ws.status',
        target: `linked-account:${row.id}`,
        before: { status: row.status },
        after: { status: input.status },
        requestId: actor.requestId,
      });
      return adminItem(tx, updated, at, locale);
    });
  }

  async function rateGet() {
    const { hourlyRatePaise } = await getSetting(db, 'linked');
    return { hourlyRate: formatRupees(BigInt(hourlyRatePaise)) };
  }

  async function writeRate(tx: Tx, before: { hourlyRatePaise: number }, hourlyRate: bigint, actor: Actor) {
    await putSetting(tx, 'linked', { hourlyRatePaise: Number(hourlyRate) });
    await writeAudit(tx, {
      actorId: actor.id,
      action: 'ws.rate.set',
      target: 'setting:linked',
      before: { hourlyRate: formatRupees(BigInt(before.hourlyRatePaise)) },
      after: { hourlyRate: formatRupees(hourlyRate) },
      requestId: actor.requestId,
    });
    return { hourlyRate: formatRupees(hourlyRate) };
  }

  /**
   * The rate pays every online linked account, one an operator paired for an account of their own
   * too: a lower rate applies at once, a higher one is proposed for a second admin
   * (docs/decisions/dual-control.md).
   */
  async function rateSet(actor: Actor, hourlyRate: bigint) {
    return db.transaction(async (tx) => {
      const before = await getSetting(tx, 'linked', { forUpdate: true });
      const diff = diffControl(
        { hourlyRate: formatRupees(BigInt(before.hourlyRatePaise)) },
        { hourlyRate: formatRupees(hourlyRate) },
      );
      // An unchanged rate is an empty diff, which only tightens too.
      if (onlyTightens(diff, (field) => (field === 'hourlyRate' ? 'lower' : undefined)))
        return { ...(await writeRate(tx, before, hourlyRate, actor)), change: null };
      const change = await proposeChange(tx, now(), actor, { kind: 'linked_rate', target: 'setting:linked', ...diff });
      return { hourlyRate: formatRupees(BigInt(before.hourlyRatePaise)), change };
    });
  }

  /** Dual control of the rate: its current value, and the apply of a proposal. */
  const rateControl: ControlKind = {
    current: async (tx) => ({
      hourlyRate: formatRupees(BigInt((await getSetting(tx, 'linked', { forUpdate: true })).hourlyRatePaise)),
    }),
    async apply(tx, change, actor) {
      const before = await getSetting(tx, 'linked', { forUpdate: true });
      const paise = parseRupees(String((change.newValue as { hourlyRate: string }).hourlyRate));
      if (paise === undefined) throw new AppError('validation_failed');
      await writeRate(tx, before, paise, actor);
    },
  };

  return { list, accountId, complete, setStatus, rateGet, rateSet, rateControl };
}

export type LinkedAccountsAdmin = ReturnType<typeof createLinkedAccountsAdmin>;
