import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, BENCH_ADMIN_ENV, registerUsers } from './lib/api';
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
 * A fair flood is one the limiters do not turn away cheaply, or it would not hash at all: half
 * correct logins of real users (each a hash and a new session) and half wrong logins for unknown
 * names from many addresses (each a hash against the dummy, counted per address), as a botnet
 * would. The server trusts X-Forwarded-For here (TRUST_PROXY=true) so the addresses count.
 */
function floodRequests(users: { username: string; password: string }[]): LoadRequest[] {
  const requests: LoadRequest[] = [];
  for (let i = 0; i < 200; i += 1) {
    const user = users[i % users.length] as { username: string; password: string };
    const body =
      i % 2 === 0
        ? { username: user.username, password: user.password }
        : { username: `flood${i}@bench.kamai.local`, password: 'not-the-password' };
    requests.push({
      method: 'POST',
      path: `${API}/common/user/login`,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${i >> 8}.${i & 255}` },
      body: JSON.stringify(body),
    });
  }
  return requests;
}

async function measure(ctx: BenchContext, backend: string, server: Running): Promise<Row> {
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
  const statuses: Record<string, number> = {};
  for (const flood of floods) {
    for (const [code, count] of Object.entries(flood.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  }
  const answered = Object.entries(statuses)
    .map(([code, count]) => `${count}×${code}`)
    .join(' ');
  return {
    name: `5 hashing isolation (${backend}): user/detail p99 at ${READ.rate} req/s under a login flood`,
    figure: flooded,
    unit: 'ms',
    baseline: { label: 'p99 without the flood', value: quiet, unit: 'ms' },
    ratio,
    target: 'ratio ≤ 2.00',
    pass: ratio <= 2 && readErrors === 0,
    note: `flood ${median(floods.map((r) => r.rps)).toFixed(0)} logins/s answered ${answered}; median of ${ctx.rounds}${readErrors ? `, ${readErrors} read errors` : ''}`,
  };
}

/** 5. Hashing isolation: user/detail p99 during a login flood against its p99 without one. */
export const hashing: Benchmark = {
  id: 5,
  title: 'hashing isolation',
  async run(ctx) {
    const env = { TRUST_PROXY: 'true', ...BENCH_ADMIN_ENV };
    const rows: Row[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const pglite = await startServer({ DATA_DIR: dataDir, ...env });
    try {
      rows.push(await measure(ctx, 'PGlite', pglite));
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
        rows.push(await measure(ctx, 'PostgreSQL', server));
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
    return rows;
  },
};
