import { createHmac, timingSafeEqual } from 'node:crypto';
import { UPLOADS_URL_PREFIX } from '@kamai/contract';

const DAY_MS = 86_400_000;
const NAME_RE = /^[0-9a-f]{64}\.[a-z0-9]+$/;

/** The stored file's name in an upload URL (`/uploads/<sha256>.<ext>`, any query dropped), if it is one. */
export function uploadNameOf(url: string): string | undefined {
  if (!url.startsWith(UPLOADS_URL_PREFIX)) return undefined;
  const name = url.slice(UPLOADS_URL_PREFIX.length).split('?')[0] ?? '';
  return NAME_RE.test(name) ? name : undefined;
}

/**
 * Signed URLs of private uploads (proof screenshots): `/uploads/<name>?exp=<unix s>&sig=<HMAC>`, given
 * only to the file's owner and to staff in the answers that show it, valid until `exp`, the end of the
 * day after the answer (UTC): between one and two days, and the same URL all day, so browsers cache it.
 * An <img> cannot send the bearer token; a signature it can carry.
 */
export function createUrlSigner(secret: string, now: () => Date) {
  const sigOf = (name: string, exp: number) =>
    createHmac('sha256', secret).update(`${name}:${exp}`).digest('base64url');

  function sign(url: string): string {
    const name = uploadNameOf(url);
    if (!name) return url;
    const exp = (Math.ceil((now().getTime() + DAY_MS) / DAY_MS) * DAY_MS) / 1000;
    return `${UPLOADS_URL_PREFIX}${name}?exp=${exp}&sig=${sigOf(name, exp)}`;
  }

  /** Whether the query of a request for `name` carries a valid, unexpired signature. */
  function verify(name: string, query: { exp?: unknown; sig?: unknown }): boolean {
    const exp = Number(query.exp);
    if (!Number.isSafeInteger(exp) || exp * 1000 <= now().getTime() || typeof query.sig !== 'string') return false;
    const want = Buffer.from(sigOf(name, exp));
    const got = Buffer.from(query.sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  return { sign, verify };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
