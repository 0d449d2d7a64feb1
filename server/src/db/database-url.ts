/**
 * DATABASE_URL read the way libpq reads a connection URI (PostgreSQL manual, "Connection Strings",
 * https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING): several hosts as
 * `h1:p1,h2:p2` in the authority or as `?host=a,b&port=p1,p2`, and `target_session_attrs`. This is
 * the string pg_auto_failover prints for its formation (`pg_autoctl show uri`). node-postgres takes one
 * host only, so each host becomes a URL of its own and `client.ts` tries them in order.
 */

/** What a session must be for Kamai to keep it: it writes, so only these (libpq's names). */
export const TARGET_SESSION_ATTRS = ['any', 'read-write', 'primary'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface DatabaseTarget {
  /** One connection string per host, in the order given, for node-postgres. */
  hosts: { host: string; port: number; url: string }[];
  /** `any`: the first host that accepts the connection; otherwise the first that accepts writes. */
  targetSessionAttrs: TargetSessionAttrs;
}

export class DatabaseUrlError extends Error {}

const DEFAULT_PORT = 5432;

function port(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65_535)
    throw new DatabaseUrlError(`port "${text}" is not a port number`);
  return Number(text);
}

/** Parses a libpq-style URI; throws DatabaseUrlError with a line that says what is wrong. */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  const match = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/.exec(raw.trim());
  if (!match) throw new DatabaseUrlError('must be postgres://[user[:password]@]host[:port][,host[:port]...]/database');
  const [, scheme, userInfo, authority = '', path = '', search = ''] = match;
  const params = new URLSearchParams(search.slice(1));

  let hosts: { host: string; port: number }[] = [];
  if (authority !== '') {
    hosts = authority.split(',').map((part) => {
      const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(part);
      const [host, portText] = bracketed
        ? [bracketed[1] ?? '', bracketed[2]]
        : ([part.split(':')[0] ?? '', part.includes(':') ? part.slice(part.indexOf(':') + 1) : undefined] as const);
      if (host === '') throw new DatabaseUrlError(`host list "${authority}" has an empty host`);
      return { host: decodeURIComponent(host), port: portText === undefined || portText === '' ? 0 : port(portText) };
    });
  }
  const hostParam = params.get('host');
  const portParam = params.get('port');
  if (hostParam !== null) {
    const names = hostParam.split(',');
    if (names.some((name) => name === '')) throw new DatabaseUrlError(`host=${hostParam} has an empty host`);
    hosts = names.map((host) => ({ host, port: 0 }));
  }
  if (hosts.length === 0) throw new DatabaseUrlError('names no host');
  if (portParam !== null) {
    const ports = portParam.split(',').map(port);
    if (ports.length !== 1 && ports.length !== hosts.length)
      throw new DatabaseUrlError(`port=${portParam} must give one port or one per host (${hosts.length})`);
    hosts = hosts.map((h, i) => ({ ...h, port: ports[ports.length === 1 ? 0 : i] ?? DEFAULT_PORT }));
  }
  hosts = hosts.map((h) => ({ ...h, port: h.port || DEFAULT_PORT }));

  const attrs = params.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs))
    throw new DatabaseUrlError(
      `target_session_attrs=${attrs} is not usable: Kamai writes, so use read-write, primary or any`,
    );
  params.delete('host');
  params.delete('port');
  params.delete('target_session_attrs');
  const rest = params.toString();
  const database = path === '' || path === '/' ? '' : path;
  return {
    targetSessionAttrs: attrs as TargetSessionAttrs,
    hosts: hosts.map(({ host, port }) => {
      // A socket directory goes in the query, as node-postgres reads it there.
      const socket = host.startsWith('/');
      const authorityPart = socket ? '' : `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const query = [rest, socket ? `host=${encodeURIComponent(host)}&port=${port}` : ''].filter(Boolean).join('&');
      const url = `${scheme}://${userInfo === undefined ? '' : `${userInfo}@`}${authorityPart}${database}${query ? `?${query}` : ''}`;
      if (!socket && !URL.canParse(url)) throw new DatabaseUrlError(`host "${host}" does not make a valid URL`);
      return { host, port, url };
    }),
  };
}

/** For config.ts: a DATABASE_URL that `parseDatabaseUrl` refuses is refused at start. */
export function refineDatabaseUrl(value: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }) {
  try {
    parseDatabaseUrl(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
}
