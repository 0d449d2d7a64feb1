import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, BENCH_ADMIN, BENCH_ADMIN_ENV, call, login, registerUsers } from './lib/api';
import { alternate, type BenchContext, type Benchmark } from './lib/bench';
import { type LoadRequest, type LoadResult, runLoad } from './lib/load';
import { freshDatabase } from './lib/postgres';
import { type Running, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

/**
 * The read whose p99 is watched: a steady, paced rate well under the peak of user/detail on PGlite
 * (~300-550 req/s here, benchmark 2), so the figure shows the flood and not a saturated database.
 */
const READ = { connections: 10, rate: 100 } as const;
/** The flood: as many logins as these connections can push, each one a password hash. */
const FLOOD_CONNECTIONS = 32;
/**
 * The sign-up flood (docs/decisions/password-hashing-pools.md): 150 threads of bogus registrations; here as many
 * connections as fast as answered.
 */
const REGISTER_FLOOD_CONNECTIONS = 150;
/** Real logins measured under the register flood: paced, a few a second, as people log in. */
const LOGINS = { connections: 4, rate: 20 } as const;
/** Distinct requests of a flood list: more than a run sends, so no name or address repeats. */
const FLOOD_LIST = 20_000;

const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * A fair flood is one the limiters do not turn away cheaply, or it would not hash at all: half
 * correct logins of real users (each a hash and a new session) and half wrong logins for unknown
 * names, each name and address used once (a login attempt is counted per name and address before
 * its hash: docs/decisions/login-throttling.md), as a botnet would. The server trusts X-Forwarded-For here
 * (TRUST_PROXY=true) so the addresses count. Sent with `spread`: each request once before any again.
 */
function floodRequests(users: { username: string; password: string }[]): LoadRequest[] {
  const requests: LoadRequest[] = [];
  for (let i = 0; i < FLOOD_LIST; i += 1) {
    const user = users[i % users.length] as { username: string; password: string };
    const body =
      i % 2 === 0
        ? { username: user.username, password: user.password }
        : { username: `flood${i}@bench.kamai.local`, password: 'not-the-password' };
    requests.push({
      method: 'POST',
      path: `${API}/common/user/login`,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address(i) },
      body: JSON.stringify(body),
    });
  }
  return requests;
}

/**
 * The sign-up flood (docs/decisions/password-hashing-pools.md): registrations of new phone numbers with made-up codes,
 * each from its own address and with a real invite code (the operator's), so neither the per-address
 * limit nor the invite check turns them away and only the order of the checks (the code before any
 * hash) keeps them off the hashing pool.
 */
function registerFloodRequests(inviteCode: string): LoadRequest[] {
  return Array.from({ length: FLOOD_LIST }, (_, i) => ({
    method: 'POST' as const,
    path: `${API}/common/user/register`,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address(100_000 + i) },
    body: JSON.stringify({
      username: `6${String(i).padStart(9, '0')}`,
      password: 'Flood-pass-1',
      password2: 'Flood-pass-1',
      verifyCode: '123456',
      inviteCode,
    }),
  }));
}

/** Correct logins of the real users, each user from an address of its own. */
function loginRequests(users: { username: string; password: string }[]): LoadRequest[] {
  return users.map((user, i) => ({
    method: 'POST' as const,
    path: `${API}/common/user/login`,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address(200_000 + i) },
    body: JSON.stringify({ username: user.username, password: user.password }),
  }));
}

function sumStatuses(results: LoadResult[]) {
  const statuses: Record<string, number> = {};
  for (const result of results) {
    for (const [code, count] of Object.entries(result.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  }
  return statuses;
}

const describeStatuses = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([code, count]) => `${count}×${code}`)
    .join(' ');

/**
 * Real logins' p99 during a flood of bogus registrations against their p99
 * without it (target ≤ 2×), and how many of those logins answered 503 (target 0: the flood must not
 * take login's share of the hashing pool).
 */
async function measureRegisterFlood(
  ctx: BenchContext,
  backend: string,
  server: Running,
  users: { username: string; password: string }[],
): Promise<Row> {
  const logins = () =>
    runLoad({ url: server.url, ...LOGINS, durationSec: ctx.seconds, requests: loginRequests(users), spread: true });
  const admin = await login(server.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
  const { inviteCode } = await call<{ inviteCode: string }>(
    server.url,
    'GET',
    `${API}/user/user/detail`,
    undefined,
    admin,
  );
  const requests = registerFloodRequests(inviteCode);
  const floods: LoadResult[] = [];
  const underFlood = async () => {
    const flood = runLoad({
      url: server.url,
      connections: REGISTER_FLOOD_CONNECTIONS,
      durationSec: ctx.seconds + 1.5,
      requests,
      spread: true,
    });
    await new Promise((r) => setTimeout(r, 1000));
    const result = await logins();
    floods.push(await flood);
    return result;
  };
  progress(`${backend}: ${ctx.rounds} rounds of ${LOGINS.rate} logins/s alone, then under a register flood`);
  const runs = await alternate(ctx.rounds, { quiet: logins, flooded: underFlood });
  const quiet = median(runs.quiet.map((r) => r.p99));
  const flooded = median(runs.flooded.map((r) => r.p99));
  const ratio = flooded / quiet;
  const loginStatuses = sumStatuses(runs.flooded);
  const login503 = loginStatuses['503'] ?? 0;
  const loginErrors = [...runs.quiet, ...runs.flooded].reduce((sum, r) => sum + r.errors, 0);
  return {
    name: `5 register flood (${backend}): login p99 at ${LOGINS.rate} logins/s under ${REGISTER_FLOOD_CONNECTIONS} connections of bogus registrations`,
    figure: flooded,
    unit: 'ms',
    baseline: { label: 'login p99 without the flood', value: quiet, unit: 'ms' },
    ratio,
    target: 'ratio ≤ 2.00 and 0 login 503s',
    pass: ratio <= 2 && login503 === 0 && loginErrors === 0,
    note: `${login503} login 503s; logins under the flood answered ${describeStatuses(loginStatuses)}; flood ${median(floods.map((r) => r.rps)).toFixed(0)} registrations/s answered ${describeStatuses(sumStatuses(floods))}; median of ${ctx.rounds}${loginErrors ? `, ${loginErrors} login errors` : ''}`,
  };
}

async function measure(ctx: BenchContext, backend: string, server: Running): Promise<Row[]> {
  const users = await registerUsers(server.url, 4);
  const reader = users[0];
  if (!reader) throw new Error('no user registered');
  const read = () =>
    runLoad({
      url: `${server.url}${API}/user/user/detail`,
      ...READ,
      durationSec: ctx.seconds,
      headers: { authorization: `Bearer ${reader.token}` },
    });
  const requests = floodRequests(users);
  const floods: LoadResult[] = [];
  const underFlood = async () => {
    const flood = runLoad({
      url: server.url,
      connections: FLOOD_CONNECTIONS,
      durationSec: ctx.seconds + 1.5,
      requests,
      spread: true,
    });
    // The flood's generator needs a moment to get going; the read runs inside the flood's window.
    await new Promise((r) => setTimeout(r, 1000));
    const result = await read();
    floods.push(await flood);
    return result;
  };
  progress(`${backend}: ${ctx.rounds} rounds of ${READ.rate} req/s of user/detail alone, then under a login flood`);
  const runs = await alternate(ctx.rounds, { quiet: read, flooded: underFlood });
  const quiet = median(runs.quiet.map((r) => r.p99));
  const flooded = median(runs.flooded.map((r) => r.p99));
  const ratio = flooded / quiet;
  const readErrors = [...runs.quiet, ...runs.flooded].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const answered = describeStatuses(sumStatuses(floods));
  const hashing: Row = {
    name: `5 hashing isolation (${backend}): user/detail p99 at ${READ.rate} req/s under a login flood`,
    figure: flooded,
    unit: 'ms',
    baseline: { label: 'p99 without the flood', value: quiet, unit: 'ms' },
    ratio,
    target: 'ratio ≤ 2.00',
    pass: ratio <= 2 && readErrors === 0,
    note: `flood ${median(floods.map((r) => r.rps)).toFixed(0)} logins/s answered ${answered}; median of ${ctx.rounds}${readErrors ? `, ${readErrors} read errors` : ''}`,
  };
  return [hashing, await measureRegisterFlood(ctx, backend, server, users)];
}

/**
 * 5. Hashing isolation: user/detail p99 during a login flood against its p99 without one; and login
 * p99 during a register flood against its p99 without one, with the count of login 503s.
 */
export const hashing: Benchmark = {
  id: 5,
  title: 'hashing isolation',
  async run(ctx) {
    const env = { TRUST_PROXY: 'true', ...BENCH_ADMIN_ENV };
    const rows: Row[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const pglite = await startServer({ DATA_DIR: dataDir, ...env });
    try {
      rows.push(...(await measure(ctx, 'PGlite', pglite)));
    } finally {
      await pglite.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    const database = await freshDatabase('hash');
    if (!database) {
      progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      return rows;
    }
    try {
      const server = await startServer({ DATABASE_URL: database.url, ...env });
      try {
        rows.push(...(await measure(ctx, 'PostgreSQL', server)));
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
    return rows;
  },
};
