import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './cluster';

/**
 * A PostgreSQL primary and one streaming standby made from it with `pg_basebackup -R`, each a private
 * cluster on a free port under a temp folder, for the read-replica test. PostgreSQL refuses to run as
 * root, so as root every command runs as the `postgres` user (runuser), like pg-auto-failover.ts.
 * Both load pg_stat_statements, so the test can see which statements the standby ran.
 *
 * pg_basebackup: https://www.postgresql.org/docs/15/app-pgbasebackup.html (`-R` writes
 * standby.signal and primary_conninfo); replay control: "Recovery Control Functions" in
 * https://www.postgresql.org/docs/15/functions-admin.html.
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);

export function standbyBinaries(): string[] {
  return ['initdb', 'pg_ctl', 'pg_basebackup']
    .map((name) => `${PG_BIN}/${name}`)
    .filter((path) => !existsSync(path))
    .map((path) => `${path} (postgresql-15)`);
}

export interface Node {
  port: number;
  dir: string;
  url: string;
  query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  start(): Promise<void>;
  /** `immediate`: as a crash would (no shutdown checkpoint, connections cut). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
}

export async function startPrimaryAndStandby() {
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-replica-'));
  if (root) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  // initdb's superuser is the OS user that ran it.
  const superuser = root ? 'postgres' : userInfo().username;
  const exec = async (bin: string, args: string[]) => {
    const [cmd, argv] = root
      ? ['runuser', ['-u', 'postgres', '--', `${PG_BIN}/${bin}`, ...args]]
      : [`${PG_BIN}/${bin}`, args];
    try {
      return await run(cmd, argv, { cwd: dir, timeout: 120_000 });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`${bin} ${args.join(' ')} failed: ${(error as Error).message}\n${stdout}${stderr}`);
    }
  };

  function node(name: string, port: number): Node {
    const data = join(dir, name);
    const url = `postgres://${superuser}@127.0.0.1:${port}/postgres`;
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c shared_preload_libraries=pg_stat_statements`;
    return {
      port,
      dir: data,
      url,
      async query<R extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
        client.on('error', () => undefined);
        await client.connect();
        try {
          return (await client.query<R>(text, params)).rows;
        } finally {
          client.end().catch(() => undefined);
        }
      },
      async start() {
        await exec('pg_ctl', ['-D', data, '-l', join(dir, `${name}.log`), '-o', options, '-w', 'start']);
      },
      async stop(mode = 'fast') {
        await exec('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      },
    };
  }

  const primary = node('primary', await freePort());
  const standby = node('standby', await freePort());
  // initdb's pg_hba.conf with --auth=trust admits local replication connections too.
  await exec('initdb', ['-D', primary.dir, '--auth=trust', '-U', superuser, '--no-sync']);
  await primary.start();
  await primary.query('create extension if not exists pg_stat_statements');
  await exec('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    superuser,
    '-D',
    standby.dir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
  ]);
  await standby.start();
  return {
    primary,
    standby,
    async stop() {
      await standby.stop('immediate').catch(() => undefined);
      await primary.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
