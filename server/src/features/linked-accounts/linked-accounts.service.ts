import {
  formatRupees,
  type LinkedStatus,
  type Locale,
  PAIRING_CODES_PER_USER_PER_HOUR,
  type PageQuery,
  QR_TTL_SECONDS,
  REBIND_CODE_SECONDS,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { getSetting } from '../../platform/settings.queries';
import type { LinkProvider } from './linked-accounts.provider';
import * as q from './linked-accounts.queries';
import { createSettlement } from './linked-accounts.settlement';
import { elapsedSeconds, moveTo, toEventItem, toItem } from './linked-accounts.view';

export interface LinkedDeps {
  db: Db;
  provider: LinkProvider;
  now: () => Date;
}

/** The user's side of linked accounts: pairing, the list, the log, logout and settlement. */
export function createLinkedAccountsService({ db, provider, now }: LinkedDeps) {
  /** The caller's own number, else 404 whether it is someone else's or nobody's. */
  async function ownAccount(userId: number, phone: string) {
    const row = await q.findAccountByPhone(db, phone);
    if (!row || row.userId !== userId) throw new AppError('linked_account_not_found');
    return row;
  }

  async function throttle(userId: number, phone: string | undefined, at: Date) {
    if (phone) {
      const last = await q.lastPairingFor(db, userId, phone);
      const wait = last ? REBIND_CODE_SECONDS - elapsedSeconds(last.createdAt, at) : 0;
      if (wait > 0) throw new AppError('pairing_code_wait', { seconds: wait });
    }
    const recent = await q.countPairingsSince(db, userId, new Date(at.getTime() - 3600_000));
    if (recent >= PAIRING_CODES_PER_USER_PER_HOUR) throw new AppError('pairing_rate_limited');
  }

  /**
   * A pairing code for `phone`. Refused when the number is someone else's; for the caller's own
   * number it starts a re-bind (logged), and the status stays as it is until the pairing completes.
   */
  async function genPhoneCode(userId: number, phone: string): Promise<string> {
    const at = now();
    const existing = await q.findAccountByPhone(db, phone);
    if (existing && existing.userId !== userId) throw new AppError('phone_linked_elsewhere');
    await throttle(userId, phone, at);
    const { code, expiresAt } = await provider.requestPairingCode(phone);
    await db.transaction(async (tx) => {
      await q.insertPairing(tx, { userId, method: 'code', phone, ref: code, expiresAt, createdAt: at });
      if (existing) {
        await q.insertEvent(tx, {
          accountId: existing.id,
          kind: 'rebind_requested',
          actor: 'user',
          method: 'code',
          createdAt: at,
        });
      }
    });
    return code;
  }

  async function getQrCode(userId: number) {
    const at = now();
    await throttle(userId, undefined, at);
    const qr = await provider.requestQr();
    await q.insertPairing(db, { userId, method: 'qr', ref: qr.ref, expiresAt: qr.expiresAt, createdAt: at });
    return { id: qr.ref, payload: qr.payload, expiresAt: qr.expiresAt.toISOString(), ttlSeconds: QR_TTL_SECONDS };
  }

  async function qrStatus(userId: number, id: string) {
    const pairing = await q.findQrPairing(db, id);
    if (!pairing || pairing.userId !== userId) throw new AppError('pairing_not_found');
    if (pairing.completedAt) return { state: 'linked' as const, phone: pairing.phone };
    return { state: pairing.expiresAt > now() ? ('pending' as const) : ('expired' as const), phone: null };
  }

  /** Logs the number out at the provider; it stays the caller's, as To Login, until linked again. */
  async function logout(userId: number, phone: string, locale: Locale) {
    await ownAccount(userId, phone);
    await provider.logout(phone);
    const at = now();
    const row = await db.transaction(async (tx) => {
      const locked = await q.findAccountByPhone(tx, phone, { forUpdate: true });
      if (!locked || locked.userId !== userId) throw new AppError('linked_account_not_found');
      const to: LinkedStatus = 'to_login';
      const updated = await q.updateAccount(tx, locked.id, moveTo(locked, to, at));
      await q.insertEvent(tx, {
        accountId: locked.id,
        kind: 'logged_out',
        fromStatus: locked.status,
        toStatus: to,
        actor: 'user',
        createdAt: at,
      });
      return updated;
    });
    const pending = await q.phonesWithPendingCode(db, [phone], at, userId);
    return toItem(row, { now: at, locale, pairingPending: pending.has(phone) });
  }

  async function page(userId: number, query: PageQuery, locale: Locale) {
    const at = now();
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listAccounts(db, { userId, beforeId, limit: query.limit + 1 });
    const page = keysetPage(rows, query.limit, (row) => row.account.id);
    const accounts = page.items.map((r) => r.account);
    const pending = await q.phonesWithPendingCode(
      db,
      accounts.map((a) => a.phone),
      at,
      userId,
    );
    const items = accounts.map((row) => toItem(row, { now: at, locale, pairingPending: pending.has(row.phone) }));
    const rate = await getSetting(db, 'linked');
    return {
      items,
      nextCursor: page.nextCursor,
      hourlyRate: formatRupees(BigInt(rate.hourlyRatePaise)),
    };
  }

  async function logList(userId: number, query: PageQuery & { phone: string }, locale: Locale) {
    const account = await ownAccount(userId, query.phone);
    return eventPage(account.id, query, locale);
  }

  async function eventPage(accountId: number, query: PageQuery, locale: Locale) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listEvents(db, accountId, query.limit + 1, beforeId);
    const page = keysetPage(rows, query.limit, (row) => row.id);
    return { items: page.items.map((row) => toEventItem(row, locale)), nextCursor: page.nextCursor };
  }

  async function isBound(userId: number, phone: string) {
    const row = await q.findAccountByPhone(db, phone);
    if (row && row.userId !== userId) throw new AppError('linked_account_not_found');
    const pending = await q.phonesWithPendingCode(db, [phone], now(), userId);
    return {
      bound: Boolean(row),
      status: row?.status ?? null,
      linkedAt: row?.linkedAt.toISOString() ?? null,
      pairingPending: pending.has(phone),
    };
  }

  const settlement = createSettlement({ db, provider, now });

  return {
    genPhoneCode,
    getQrCode,
    qrStatus,
    logout,
    page,
    logList,
    eventPage,
    isBound,
    settle: (userId: number, phone: string) => settlement.settle(userId, phone),
  };
}

export type LinkedAccountsService = ReturnType<typeof createLinkedAccountsService>;
