import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { inject } from 'vitest';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the reliability suite needs: a PostgreSQL server (DATABASE_URL) and Redis (REDIS_URL, default
 * the local one). Without them the suite is skipped on a developer's machine; with CI=true it fails.
 */
export async function requiredServices(): Promise<{ databaseUrl: string; redisUrl: string } | undefined> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const missing: string[] = [];
  if (!databaseUrl) missing.push('DATABASE_URL is not set');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    missing.push(`Redis does not answer at ${redisUrl}`);
  } finally {
    redis.disconnect();
  }
  if (missing.length === 0 && databaseUrl) return { databaseUrl, redisUrl };
  if (process.env.CI === 'true') throw new Error(`the reliability suite needs its services: ${missing.join('; ')}`);
  return undefined;
}

/** A new empty database on the server of `baseUrl`, dropped by `drop()`. */
export async function freshDatabase(baseUrl: string) {
  const name = `kamai_rel_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

export interface Instance {
  url: string;
  process: ChildProcess;
  output: string[];
  /** SIGTERM and wait for the exit: the exit code (0: a clean shutdown) or the signal that ended it. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, as a crash or the OOM killer would, and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * A real server process, answered once its readiness route says the database is up: the run's bundle of
 * `src/main.ts` (global-setup.ts), or the source through tsx when the file runs without that setup.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-rel-'));
  const bundle = inject('serverBundle');
  const args = bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited at start:\n${output.join('')}`);
    const ready = await fetch(`${url}/obj/test/t2`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`instance not ready in time:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    process: child,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      return { code: child.exitCode, signal: child.signalCode };
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the route it called
  body: { code: number; key: string; message: string; data: any };
}

/** One JSON request; `ip` is sent as X-Forwarded-For (the instances trust the proxy header). */
export async function api(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; ip?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** Deletes the Redis keys of one run (its key prefix). */
export async function dropRedisKeys(redisUrl: string, prefix: string) {
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/**
 * A change the only admin proposed (docs/decisions/dual-control.md), applied by them as the 24-hour
 * delay allows: the proposal's times are moved a day into the past in the database (the suite's
 * servers run on the real clock), then the proposer applies it. Answers the apply.
 */
export async function applyAlone(base: string, databaseUrl: string, proposed: Answer, token: string) {
  const id = proposed.body?.data?.change?.id;
  if (typeof id !== 'number') throw new Error(`no proposal in ${JSON.stringify(proposed.body)}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update control_changes set created_at = created_at - interval '25 hours',
         earliest_apply_at = earliest_apply_at - interval '25 hours' where id = $1`,
      [id],
    );
  } finally {
    await client.end();
  }
  return api(base, 'POST', '/go_user/api/v1/admin/control/apply', { body: { id }, token });
}
