/**
 * Which push services the server may send to. A subscription's endpoint is a URL the user supplies,
 * so without this list the server would POST wherever it is told (internal addresses included).
 */

/** The browsers' push services (docs/operations.md "Web Push"). */
export const DEFAULT_PUSH_ORIGINS = [
  // Chrome, and the Chromium browsers on Android and desktop (Samsung Internet, Opera, Brave)
  'https://fcm.googleapis.com',
  // Firefox (autopush)
  'https://updates.push.services.mozilla.com',
  // Safari on macOS and iOS/iPadOS: endpoints at web.push.apple.com; Apple says to allow *.push.apple.com
  'https://*.push.apple.com',
  // Edge on Windows (Windows Push Notification Services), per-region hosts such as wns2-par02p.notify.windows.com
  'https://*.notify.windows.com',
];

export interface OriginPattern {
  protocol: 'https:' | 'http:';
  /** An exact host, or a suffix (`.notify.windows.com`) when `wildcard`. */
  host: string;
  wildcard: boolean;
  /** '' for the protocol's default port, as `URL.port` gives it. */
  port: string;
}

/**
 * Parses `https://fcm.googleapis.com,https://*.notify.windows.com`. Only origins (no path, query or
 * credentials); `*.` only as the first label. Throws a message naming the bad entry.
 */
export function parseOrigins(list: string): OriginPattern[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('must list at least one origin');
  return entries.map((entry) => {
    const wildcard = /^https?:\/\/\*\./.test(entry);
    let url: URL;
    try {
      url = new URL(wildcard ? entry.replace('*.', 'wildcard.') : entry);
    } catch {
      throw new Error(`${entry}: not an origin`);
    }
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!bare || entry.endsWith('/') || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new Error(`${entry}: must be scheme://host[:port] only`);
    }
    const host = wildcard ? url.hostname.slice('wildcard'.length) : url.hostname;
    if (wildcard && host.split('.').filter(Boolean).length < 2) throw new Error(`${entry}: wildcard too broad`);
    return { protocol: url.protocol, host, wildcard, port: url.port };
  });
}

/** True when `endpoint` is an absolute URL on one of the allowed origins. */
export function isAllowedEndpoint(endpoint: string, allowed: readonly OriginPattern[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return allowed.some((origin) => {
    if (url.protocol !== origin.protocol || url.port !== origin.port) return false;
    if (!origin.wildcard) return url.hostname === origin.host;
    // One or more labels before the suffix: `a.notify.windows.com`, never `notify.windows.com` itself
    // nor `evilnotify.windows.com`.
    return url.hostname.endsWith(origin.host) && url.hostname.length > origin.host.length;
  });
}
