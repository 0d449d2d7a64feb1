import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The push service's answer: `gone` means the subscription is dead (404/410) and must be deleted. */
export type PushOutcome =
  | { result: 'sent' }
  | { result: 'gone'; status: number }
  | { result: 'refused'; status: number };

/** Sends one encrypted message to one subscription. Throws on a network failure or a retryable answer. */
export interface PushSender {
  send(
    target: PushTarget,
    payload: string,
    options: { ttlSeconds: number; urgency: 'normal' | 'high' },
  ): Promise<PushOutcome>;
}

/** A retryable answer; `retryAfterMs` is the service's Retry-After, which the job runner waits at least. */
export class PushRetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Longest Retry-After honoured (a service asking for more is retried after this). */
const MAX_RETRY_AFTER_MS = 3_600_000;

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * The Web Push protocol (RFC 8030) with VAPID (RFC 8292) and aes128gcm payload encryption (RFC 8291).
 * `web-push` builds the request (keys, encryption, the `Authorization: vapid t=…, k=…` header); we send
 * it with fetch so redirects are never followed (a push service does not redirect; following one could
 * reach an address the origin check never saw) and a slow service is cut off.
 */
export function webPushSender(vapid: VapidKeys, timeoutMs: number): PushSender {
  return {
    async send(target, payload, options) {
      const request = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        { vapidDetails: vapid, TTL: options.ttlSeconds, urgency: options.urgency, contentEncoding: 'aes128gcm' },
      );
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers,
        body: request.body ?? undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      const status = response.status;
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      if (status >= 200 && status < 300) return { result: 'sent' };
      if (status === 404 || status === 410) return { result: 'gone', status };
      // 429 and 5xx are the service's trouble: try again later, not before its Retry-After (RFC 8030 §8.4).
      if (status === 429 || status >= 500) {
        throw new PushRetryableError(`push service answered ${status}`, retryAfter);
      }
      return { result: 'refused', status };
    },
  };
}

export function generateVapidKeys() {
  return webpush.generateVAPIDKeys();
}
