import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './cluster';

/**
 * A pg_auto_failover formation for the failover test (docs/decisions/database-failover.md): a monitor and three nodes
 * on their own
 * ports under a temp folder, and HAProxy in front of them, all real processes from Debian's packages
 * (postgresql-15-auto-failover, pg-auto-failover-cli, haproxy). pg_autoctl refuses to run as root, so
 * as root everything of PostgreSQL runs as the `postgres` user (runuser).
 *
 * pg_auto_failover: https://pg-auto-failover.readthedocs.io/en/main/ (ref/pg_autoctl_create_monitor,
 * ref/pg_autoctl_create_postgres, ref/configuration "Monitor configuration" for the pgautofailover.* GUCs).
 */

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** The binaries, or what is missing. */
export function failoverBinaries(): { pgAutoctl: string; haproxy: string } | { missing: string[] } {
  const find = (names: string[]) => names.find((path) => existsSync(path));
  const pgAutoctl = find([`${PG_BIN}/pg_autoctl`, '/usr/bin/pg_autoctl']);
  const haproxy = find(['/usr/sbin/haproxy', '/usr/bin/haproxy']);
  const missing = [
    ...(pgAutoctl ? [] : ['pg_autoctl (postgresql-15-auto-failover, pg-auto-failover-cli)']),
    ...(haproxy ? [] : ['haproxy']),
    ...(existsSync(`${PG_BIN}/pg_ctl`) ? [] : [`${PG_BIN}/pg_ctl (postgresql-15)`]),
  ];
  if (pgAutoctl && haproxy && missing.length === 0) return { pgAutoctl, haproxy };
  return { missing };
}

/**
 * The monitor's timeouts, tuned down from their defaults (5 s checks, 20 s unhealthy, 30 s demote
 * timeout; the write outage was 50-52 s) so a dead primary is replaced in seconds. The keeper's
 * `network_partition_timeout` (a primary that reaches neither monitor nor standbys demotes itself after
 * it) stays below `primary_demote_timeout` (how long the monitor waits for that before it promotes),
 * so a partitioned old primary has stopped taking writes before the new one starts.
 */
export const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 2000,
  'pgautofailover.primary_demote_timeout': 5000,
} as const;
export const KEEPER_NETWORK_PARTITION_TIMEOUT_S = 3;

/** The HAProxy health check: libpq's target_session_attrs=read-write in the PostgreSQL wire protocol. */
export function haproxyConfig(port: number, nodes: { name: string; port: number }[], database: string, user: string) {
  const int32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  const startupBody = Buffer.concat([int32(196_608), Buffer.from(`user\0${user}\0database\0${database}\0\0`)]);
  const startup = Buffer.concat([int32(startupBody.length + 4), startupBody]);
  const text = Buffer.from('show transaction_read_only\0');
  const query = Buffer.concat([Buffer.from('Q'), int32(text.length + 4), text]);
  return `global
  maxconn 500
defaults
  mode tcp
  timeout connect 1s
  timeout client 120s
  timeout server 120s
  timeout check 1s
listen postgres
  bind 127.0.0.1:${port}
  # A node is up when a session on it is writable: StartupMessage (trust), wait for ReadyForQuery (Z, idle),
  # ask transaction_read_only, and expect a DataRow of one column holding "off"; then Terminate.
  option tcp-check
  tcp-check connect
  tcp-check send-binary ${startup.toString('hex')}
  tcp-check expect binary 5a0000000549
  tcp-check send-binary ${query.toString('hex')}
  tcp-check expect binary 0001000000036f6666
  tcp-check send-binary 5800000004
  # Checked every 500 ms, down after 2 failures, up after 1 success; a node marked down has its
  # sessions cut, so no client keeps writing to a node that stopped being the primary.
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check`).join('\n')}
`;
}

interface Proc {
  name: string;
  child: ChildProcess;
  log: string[];
}

export async function startFormation(bins: { pgAutoctl: string; haproxy: string }) {
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'kamai-failover-'));
  const owner = root ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : undefined;
  const ownerGroup = root ? Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) : undefined;
  if (owner !== undefined && ownerGroup !== undefined) chownSync(dir, owner, ownerGroup);
  const env = {
    PATH: `${PG_BIN}:/usr/bin:/bin:/usr/sbin:/sbin`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'share'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
  };
  const command = (args: string[]) =>
    root
      ? {
          cmd: 'runuser',
          args: ['-u', 'postgres', '--', 'env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...args],
        }
      : { cmd: args[0] as string, args: args.slice(1) };
  const procs: Proc[] = [];
  // initdb's superuser is the OS user that ran it.
  const superuser = root ? 'postgres' : userInfo().username;
  let haproxy: Proc | undefined;

  /** A pg_autoctl command to its end; its output in the error when it fails. */
  async function run(args: string[]) {
    const { cmd, args: argv } = command([bins.pgAutoctl, ...args]);
    const child = spawn(cmd, argv, { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: string[] = [];
    child.stdout?.on('data', (c) => out.push(String(c)));
    child.stderr?.on('data', (c) => out.push(String(c)));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`pg_autoctl ${args.join(' ')} failed (${code}):\n${out.join('')}`);
  }

  /** A long-running process in a process group of its own (so SIGKILL to the group takes all of it). */
  function service(name: string, argv: string[], asPostgres: boolean): Proc {
    const { cmd, args } = asPostgres ? command(argv) : { cmd: argv[0] as string, args: argv.slice(1) };
    const child = spawn(cmd, args, {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const log: string[] = [];
    child.stdout?.on('data', (c) => log.push(String(c)));
    child.stderr?.on('data', (c) => log.push(String(c)));
    const proc = { name, child, log };
    return proc;
  }

  function killGroup(proc: Proc) {
    try {
      if (proc.child.pid) process.kill(-proc.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  const monitorPort = await freePort();
  const nodes = await Promise.all(
    ['node1', 'node2', 'node3'].map(async (name) => ({
      name,
      port: await freePort(),
      proc: undefined as Proc | undefined,
    })),
  );
  const proxyPort = await freePort();
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  const common = ['--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl', '--pgctl', `${PG_BIN}/pg_ctl`];

  async function monitorQuery<R extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
    const client = new pg.Client({
      connectionString: `postgres://${superuser}@127.0.0.1:${monitorPort}/pg_auto_failover`,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<R>(text, params)).rows;
    } finally {
      client.end().catch(() => undefined);
    }
  }

  async function states() {
    return monitorQuery<{ nodename: string; nodeport: number; reportedstate: string; goalstate: string }>(
      'select nodename, nodeport, reportedstate::text, goalstate::text from pgautofailover.node order by nodeid',
    );
  }

  async function waitFor(what: string, ok: () => Promise<boolean>, ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      if (await ok().catch(() => false)) return;
      if (Date.now() > deadline)
        throw new Error(
          `formation: ${what} not reached in ${ms} ms: ${JSON.stringify(await states().catch((e) => String(e)))}`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const formation = {
    dir,
    proxyPort,
    nodes,
    /** The URL Kamai is given: HAProxy's stable port. */
    url: `postgres://${superuser}@127.0.0.1:${proxyPort}/kamai`,
    /** The formation's libpq host list (as `pg_autoctl show uri` prints it). */
    hostList: () =>
      `postgres://${superuser}@${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/kamai?target_session_attrs=read-write`,
    states,
    monitorQuery,
    waitFor,
    async primary() {
      const [row] = (await states()).filter((s) => s.reportedstate === 'primary' && s.goalstate === 'primary');
      return nodes.find((n) => n.port === row?.nodeport);
    },
    /** SIGKILL to the node's whole process group: its pg_autoctl keeper, postmaster and backends. */
    kill(node: (typeof nodes)[number]) {
      if (node.proc) killGroup(node.proc);
    },
    logs() {
      return [
        ...procs.map((p) => `--- ${p.name}\n${p.log.join('').slice(-4000)}`),
        haproxy ? `--- haproxy\n${haproxy.log.join('')}` : '',
      ].join('\n');
    },
    async stop() {
      for (const proc of [...procs, ...(haproxy ? [haproxy] : [])]) killGroup(proc);
      await new Promise((r) => setTimeout(r, 300));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await run(['create', 'monitor', '--pgdata', join(dir, 'monitor'), '--pgport', String(monitorPort), ...common]);
    procs.push(service('monitor', [bins.pgAutoctl, 'run', '--pgdata', join(dir, 'monitor')], true));
    await waitFor('monitor up', async () => (await monitorQuery('select 1')).length === 1, 30_000);
    for (const [name, value] of Object.entries(MONITOR_SETTINGS)) {
      await monitorQuery(`alter system set ${name} = ${value}`);
    }
    await monitorQuery('select pg_reload_conf()');
    for (const node of nodes) {
      const pgdata = join(dir, node.name);
      await run([
        'create',
        'postgres',
        '--pgdata',
        pgdata,
        '--pgport',
        String(node.port),
        '--name',
        node.name,
        '--dbname',
        'kamai',
        '--monitor',
        monitorUri,
        ...common,
      ]);
      await run([
        'config',
        'set',
        '--pgdata',
        pgdata,
        'timeout.network_partition_timeout',
        String(KEEPER_NETWORK_PARTITION_TIMEOUT_S),
      ]);
      node.proc = service(node.name, [bins.pgAutoctl, 'run', '--pgdata', pgdata], true);
      procs.push(node.proc);
    }
    await waitFor(
      'one primary and two secondaries',
      async () => {
        const s = await states();
        return (
          s.filter((n) => n.reportedstate === 'primary' && n.goalstate === 'primary').length === 1 &&
          s.filter((n) => n.reportedstate === 'secondary' && n.goalstate === 'secondary').length === 2
        );
      },
      120_000,
    );
    const cfg = join(dir, 'haproxy.cfg');
    writeFileSync(cfg, haproxyConfig(proxyPort, nodes, 'kamai', superuser));
    haproxy = service('haproxy', [bins.haproxy, '-f', cfg, '-db'], false);
    await waitFor(
      'HAProxy reaching the primary',
      async () => {
        const client = new pg.Client({ connectionString: formation.url, connectionTimeoutMillis: 1000 });
        client.on('error', () => undefined);
        await client.connect();
        try {
          const { rows } = await client.query('show transaction_read_only');
          return rows[0]?.transaction_read_only === 'off';
        } finally {
          // Not awaited: end() never settles on a connection that already dropped.
          client.end().catch(() => undefined);
        }
      },
      30_000,
    );
  } catch (error) {
    const logs = formation.logs();
    await formation.stop();
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
  return formation;
}

export type Formation = Awaited<ReturnType<typeof startFormation>>;
