import { z } from 'zod';
import { endpoints } from './endpoints';
import type { RouteDef } from './route-def';

/** At most this many devices per user get pushes; subscribing another drops the oldest. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;
/** Push services keep an undelivered message this long (seconds) before dropping it. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Where a push opens the app (spec paths): the inbox, income records, the withdrawal review list. */
export const PUSH_PATHS = {
  notices: '/List1',
  income: '/List2',
  withdrawals: '/List4',
  /** One complaint: `?id=` follows. */
  complaint: '/Complaint',
} as const;

const base64url = (bytes: number) =>
  z
    .string()
    .max(Math.ceil(bytes / 3) * 4, 'validation_failed')
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'validation_failed')
    .refine((v) => decodedLength(v) === bytes, 'validation_failed');

/** Bytes a base64url string (padding allowed) decodes to. */
function decodedLength(value: string): number {
  const bare = value.replace(/=+$/, '');
  return Math.floor((bare.length * 3) / 4);
}

/**
 * `PushSubscription.toJSON()` as the browser gives it. The endpoint is a URL the caller chooses, so the
 * server also checks its origin against PUSH_ALLOWED_ORIGINS (`push_endpoint_not_allowed`).
 */
export const pushSubscribeBody = z.object({
  endpoint: z.url({ error: 'validation_failed' }).max(2048, 'validation_failed'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65),
    /** The shared authentication secret (16 bytes). */
    auth: base64url(16),
  }),
});
export type PushSubscribeBody = z.infer<typeof pushSubscribeBody>;

export const pushUnsubscribeBody = z.object({
  endpoint: z.string().min(1, 'validation_failed').max(2048, 'validation_failed'),
});

export const pushKeyData = z.object({
  /** The VAPID public key (base64url) the browser passes as `applicationServerKey`. */
  publicKey: z.string(),
});

/** What a push carries (encrypted) to the service worker, which shows it as a notification. */
export const pushMessage = z.object({
  title: z.string(),
  body: z.string(),
  /** An app path to open when the notification is clicked (`/List4`). */
  url: z.string(),
  /** Same tag: a newer notification replaces the older one on the device. */
  tag: z.string(),
});
export type PushMessage = z.infer<typeof pushMessage>;

export const pushRoutes = {
  pushKey: {
    ...endpoints.pushKey,
    policy: 'public',
    summary: "The server's VAPID public key (the browser's applicationServerKey for subscribing)",
    tag: 'push',
    data: pushKeyData,
  },
  pushSubscribe: {
    ...endpoints.pushSubscribe,
    policy: 'user',
    summary:
      "Saves this browser's push subscription for the caller, in the request's language; the endpoint must be a known push service",
    tag: 'push',
    body: pushSubscribeBody,
    data: z.null(),
    ok: 'push_subscribed',
  },
  pushUnsubscribe: {
    ...endpoints.pushUnsubscribe,
    policy: 'user',
    summary: "Forgets one of the caller's push subscriptions (an unknown endpoint is not an error)",
    tag: 'push',
    body: pushUnsubscribeBody,
    data: z.null(),
    ok: 'push_unsubscribed',
  },
} as const satisfies Record<string, RouteDef>;
