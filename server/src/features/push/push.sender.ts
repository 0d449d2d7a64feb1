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

export class PushRetryableError extends Error {}

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
      if (status >= 200 && status < 300) return { result: 'sent' };
      if (status === 404 || status === 410) return { result: 'gone', status };
      // 429 and 5xx are the service's trouble: try again later (RFC 8030 §8.4 asks to honour Retry-After).
      if (status === 429 || status >= 500) throw new PushRetryableError(`push service answered ${status}`);
      return { result: 'refused', status };
    },
  };
}

export function generateVapidKeys() {
  return webpush.generateVAPIDKeys();
}
