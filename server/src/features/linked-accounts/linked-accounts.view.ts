import {
  formatRupees,
  LINKED_EVENT_LABEL,
  LINKED_SETTLEMENT_INTERVAL_SECONDS,
  LINKED_STATUS_LABEL,
  type LinkedAccountItem,
  type LinkedEventItem,
  type LinkedStatus,
  type Locale,
  translate,
} from '@kamai/contract';
import type { EventRow, LinkedAccountPatch, LinkedAccountRow } from './linked-accounts.queries';

const INTERVAL_MS = LINKED_SETTLEMENT_INTERVAL_SECONDS * 1000;

export function elapsedSeconds(since: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));
}

/** Settlement intervals are clock hours (UTC): the one `at` falls in. */
export function intervalOf(at: Date): number {
  return Math.floor(at.getTime() / INTERVAL_MS);
}

export function intervalStart(interval: number): Date {
  return new Date(interval * INTERVAL_MS);
}

/**
 * The idempotency key of a linked account's settlement in one interval: `linked-account:42:settle:2026-11-22T09`.
 * By the row's id, not the number: postings are kept for good, the number goes when its owner deletes the account.
 */
export function settlementKey(linkedAccountId: number, interval: number): string {
  return `linked-account:${linkedAccountId}:settle:${intervalStart(interval).toISOString().slice(0, 13)}`;
}

/** When the number may be settled again; undefined when it may be now. */
export function settleAvailableAt(row: LinkedAccountRow, now: Date): Date | undefined {
  if (!row.lastSettledAt || intervalOf(row.lastSettledAt) < intervalOf(now)) return undefined;
  return intervalStart(intervalOf(now) + 1);
}

/**
 * The change of a number's online-time fields when its status becomes `to` at `now`: leaving Online
 * closes the open stretch into the all-time and the unsettled totals; entering Online opens one.
 */
export function moveTo(row: LinkedAccountRow, to: LinkedStatus, now: Date): LinkedAccountPatch {
  const patch: LinkedAccountPatch = { status: to };
  if (row.status === 'online' && to !== 'online' && row.onlineSince) {
    const seconds = elapsedSeconds(row.onlineSince, now);
    patch.onlineSeconds = row.onlineSeconds + seconds;
    patch.unsettledSeconds = row.unsettledSeconds + seconds;
    patch.onlineSince = null;
  }
  if (row.status !== 'online' && to === 'online') patch.onlineSince = now;
  return patch;
}

/**
 * Closes the unsettled part of the open stretch at `now` without ending it: the stretch then starts
 * again after the whole seconds counted, so no fraction is lost or paid twice.
 */
export function closeOpenStretch(row: LinkedAccountRow, now: Date): LinkedAccountPatch & { unsettledSeconds: number } {
  if (!row.onlineSince) return { unsettledSeconds: row.unsettledSeconds };
  const seconds = elapsedSeconds(row.onlineSince, now);
  return {
    onlineSince: new Date(row.onlineSince.getTime() + seconds * 1000),
    onlineSeconds: row.onlineSeconds + seconds,
    unsettledSeconds: row.unsettledSeconds + seconds,
  };
}

export function toItem(
  row: LinkedAccountRow,
  options: { now: Date; locale: Locale; pairingPending: boolean },
): LinkedAccountItem {
  const open = row.onlineSince ? elapsedSeconds(row.onlineSince, options.now) : 0;
  return {
    id: row.id,
    phone: row.phone,
    status: row.status,
    statusLabel: translate(options.locale, LINKED_STATUS_LABEL[row.status]),
    linkedAt: row.linkedAt.toISOString(),
    onlineSeconds: row.onlineSeconds + open,
    unsettledSeconds: row.unsettledSeconds + open,
    earnings: formatRupees(row.earned),
    lastSettledAt: row.lastSettledAt?.toISOString() ?? null,
    settleAvailableAt: settleAvailableAt(row, options.now)?.toISOString() ?? null,
    pairingPending: options.pairingPending,
  };
}

export function toEventItem(row: EventRow, locale: Locale): LinkedEventItem {
  return {
    id: row.id,
    kind: row.kind,
    label: translate(locale, LINKED_EVENT_LABEL[row.kind]),
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    actor: row.actor,
    amount: row.amount === null ? null : formatRupees(row.amount),
    seconds: row.seconds,
    method: row.method,
    createdAt: row.createdAt.toISOString(),
  };
}
