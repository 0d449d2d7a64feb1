import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes';

const run = promisify(execFile);

/** Settings copied from the server at `like` (BENCH_POSTGRES_URL) so the private cluster is sized as it is. */
const COPIED = ['shared_buffers', 'work_mem', 'max_wal_size', 'checkpoint_timeout', 'effective_cache_size'];

export interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of this machine's PostgreSQL 15 (initdb in a temporary directory,
 * trust authentication on 127.0.0.1, a free port) with pg_stat_statements preloaded, which the shared
 * server does not load and cannot without a restart. Its WAL is its own, so a WAL position difference
 * is this run's alone. As root, initdb and the server run as the `postgres` user (initdb refuses root).
 */
export async function startOwnPostgres(like: string): Promise<OwnPostgres> {
  const settings: string[] = [];
  const probe = new pg.Client({ connectionString: like, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    const { rows } = await probe.query<{ name: string; setting: string; unit: string | null }>(
      'select name, setting, unit from pg_settings where name = any($1)',
      [COPIED],
    );
    for (const r of rows) settings.push(`-c ${r.name}=${r.setting}${r.unit === '8kB' ? '' : (r.unit ?? '')}`);
  } catch {
    // No server to copy from: the cluster keeps initdb's defaults.
  } finally {
    await probe.end().catch(() => undefined);
  }
  const dir = mkdtempSync(join(tmpdir(), 'kamai-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const id = async (flag: string) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const as = async (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  const port = await freePort();
  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-N']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_preload_libraries=pg_stat_statements',
    '-c track_functions=all',
    ...settings,
  ].join(' ');
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
