import { createHmac, timingSafeEqual } from 'node:crypto';

export type CallbackParams = Record<string, string | undefined>;

/** Every parameter but `sign`, sorted by name, as `k=v&k=v` (values as they are, not URL-encoded). */
export function signingString(params: CallbackParams): string {
  return Object.keys(params)
    .filter((name) => name !== 'sign' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** Hex HMAC-SHA256 of the signing string, keyed by the gateway secret. */
export function signParams(params: CallbackParams, secret: string): string {
  return createHmac('sha256', secret).update(signingString(params)).digest('hex');
}

/** Whether `sign` is the right signature of the other parameters, compared in constant time. */
export function verifySignature(params: CallbackParams, secret: string): boolean {
  const given = params.sign;
  if (!given || !/^[0-9a-fA-F]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(signParams(params, secret), 'hex'), Buffer.from(given, 'hex'));
}
