import { ApiError } from '@kamai/client';
import { PAIRING_CODE_TTL_SECONDS, type RouteData } from '@kamai/contract';
import { normalizePhone, PHONE_COUNTRY_CODE, REBIND_CODE_SECONDS } from '@kamai/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { getToken } from '../../lib/api';
import { useNow } from '../../lib/use-now';
import { genPhoneCode } from './api/gen-phone-code';
import { isBound } from './api/is-bound';

type Bound = RouteData<'linkedIsBound'>;

/** A pairing code this tab asked for, and what the number looked like just before (to tell a re-bind). */
export interface Pairing {
  /** "91XXXXXXXXXX". */
  phone: string;
  code: string;
  /** When the code stops working, and when the next one may be asked for (ms since epoch). */
  expiresAt: number;
  nextCodeAt: number;
  before: { bound: boolean; linkedAt: string | null };
  /** The session that asked: after a logout or another login on this device the code is not shown. */
  session: string | null;
}

export type PairingOutcome = 'waiting' | 'rebinding' | 'success' | 'expired';

// Kept outside React, like the OTP resend countdown: closing and reopening the re-bind dialog, or
// leaving the Add tab and coming back, keeps the code on screen and the 10 s wait on the button.
const pairings = new Map<string, Pairing>();
const waits = new Map<string, number>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** "9876543210", "+91 98765 43210" → "919876543210"; undefined while it is not a valid Indian mobile. */
export function linkedPhoneOf(input: string): string | undefined {
  return normalizePhone(input);
}

export function pairingOf(phone: string | undefined): Pairing | undefined {
  const pairing = phone ? pairings.get(phone) : undefined;
  return pairing?.session === getToken() ? pairing : undefined;
}

function waitUntil(phone: string, at: number): void {
  waits.set(phone, Math.max(waits.get(phone) ?? 0, at));
  changed();
}

/**
 * Asks for a code for `phone` ("91XXXXXXXXXX"): first what the number looks like now, so a finished
 * re-bind can be told from the old link. Answers the server's confirmation text; throws ApiError.
 */
export async function requestPairingCode(phone: string): Promise<string> {
  const digits = phone.slice(PHONE_COUNTRY_CODE.length);
  const before: Bound | undefined = await isBound(digits).catch(() => undefined);
  try {
    const res = await genPhoneCode(digits);
    const now = Date.now();
    pairings.set(phone, {
      phone,
      code: res.data,
      expiresAt: now + PAIRING_CODE_TTL_SECONDS * 1000,
      nextCodeAt: now + REBIND_CODE_SECONDS * 1000,
      before: { bound: before?.bound ?? false, linkedAt: before?.linkedAt ?? null },
      session: getToken(),
    });
    waitUntil(phone, now + REBIND_CODE_SECONDS * 1000);
    return res.message;
  } catch (error) {
    // The server says how long to wait (another tab or device asked a moment ago): count that down.
    const seconds = error instanceof ApiError ? (error.data as { seconds?: unknown } | null)?.seconds : undefined;
    if (typeof seconds === 'number') waitUntil(phone, Date.now() + seconds * 1000);
    throw error;
  }
}

export function forgetPairing(phone: string): void {
  if (pairings.delete(phone)) changed();
}

/** The pairing of `phone`, the seconds until another code may be asked for and until the code expires. */
export function usePairing(phone: string | undefined) {
  useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
  const pairing = pairingOf(phone);
  const waitEnd = phone ? (waits.get(phone) ?? 0) : 0;
  const ticking = Date.now() < Math.max(waitEnd, pairing?.expiresAt ?? 0);
  const now = useNow(ticking);
  return {
    pairing,
    waitSeconds: Math.max(0, Math.ceil((waitEnd - now) / 1000)),
    expiresInSeconds: pairing ? Math.max(0, Math.ceil((pairing.expiresAt - now) / 1000)) : 0,
  };
}

/** Whether the messaging app has confirmed `pairing` yet. */
export function outcomeOf(pairing: Pairing, bound: Bound | undefined, now = Date.now()): PairingOutcome {
  if (bound?.bound && !bound.pairingPending && (!pairing.before.bound || bound.linkedAt !== pairing.before.linkedAt)) {
    return 'success';
  }
  if (now >= pairing.expiresAt) return 'expired';
  return pairing.before.bound ? 'rebinding' : 'waiting';
}

/** How often the Add tab asks whether the code was entered. */
export const BOUND_POLL_MS = 2000;

/** Watches a pairing until the messaging app confirms it or the code expires. */
export function usePairingOutcome(pairing: Pairing | undefined, expiresInSeconds: number): PairingOutcome | undefined {
  const query = useQuery({
    queryKey: ['linked', 'is-bound', pairing?.phone, pairing?.code] as const,
    queryFn: ({ signal }) => isBound(pairing?.phone.slice(PHONE_COUNTRY_CODE.length) ?? '', signal),
    enabled: pairing !== undefined,
    staleTime: 0,
    refetchInterval: (q) =>
      pairing && expiresInSeconds > 0 && outcomeOf(pairing, q.state.data) !== 'success' ? BOUND_POLL_MS : false,
  });
  if (!pairing) return undefined;
  return outcomeOf(pairing, query.data);
}
