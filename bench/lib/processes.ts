import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PolicyPart } from '../minimal/policy';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Running {
  url: string;
  child: ChildProcess;
  /** What the process printed (stdout and stderr), for error messages. */
  output: string[];
  /** Milliseconds from spawn until `readyPath` answered 200. */
  readyMs: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  args: string[];
  env?: Record<string, string>;
  readyPath: string;
  timeoutMs?: number;
}

/** Spawns `node args` on a free port and waits until `readyPath` answers 200. */
export async function startNode(options: StartOptions): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  const deadline = started + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`node ${options.args.join(' ')} exited with ${child.exitCode}:\n${output.join('')}`);
    }
    const ok = await fetch(`${url}${options.readyPath}`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { url, child, output, readyMs: performance.now() - started, stop };
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`node ${options.args.join(' ')} not ready after ${options.timeoutMs ?? 120_000} ms`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The anchor of the speed benchmarks: node:http answering a small JSON body, nothing else. */
export const HELLO = `require('node:http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8'});s.end('{"hello":"world"}')}).listen(Number(process.env.PORT),process.env.HOST)`;

export function startHello(): Promise<Running> {
  return startNode({ args: ['-e', HELLO], readyPath: '/' });
}

/**
 * The ceiling of the framework itself (benchmark 1's informative line): Fastify 5 with no plugin,
 * hook or schema, answering the hello's JSON from a route (`fastify` resolves from the repository).
 */
export const FASTIFY_HELLO = `const f=require('fastify')();f.get('/',async()=>({hello:'world'}));f.listen({port:Number(process.env.PORT),host:process.env.HOST})`;

export function startFastifyHello(): Promise<Running> {
  return startNode({ args: ['-e', FASTIFY_HELLO], readyPath: '/' });
}

/**
 * The server as `npm start` runs it: the bundle `npm run build -w server` makes; or another build's
 * bundle (`BENCH_SERVER_ENTRY=/work/wt/old-<sha>/server/dist/main.js npm run bench -- --no-build`,
 * relative to the repository or absolute), to run a benchmark against an older commit.
 */
export const SERVER_ENTRY = resolve(root, process.env.BENCH_SERVER_ENTRY ?? 'server/dist/main.js');

/**
 * Server processes of a PostgreSQL-backed benchmark server (`BENCH_WEB_CONCURRENCY`, default 1, the
 * server's WEB_CONCURRENCY); PGlite servers are always one process (the server refuses more).
 */
export const WEB_CONCURRENCY = process.env.BENCH_WEB_CONCURRENCY ?? '1';

export function startServer(env: Record<string, string>): Promise<Running> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build -w server`);
  const processes = env.DATABASE_URL ? WEB_CONCURRENCY : '1';
  return startNode({
    args: ['--enable-source-maps', SERVER_ENTRY],
    env: { WEB_CONCURRENCY: processes, ...env },
    readyPath: '/obj/test/t2',
  });
}

/**
 * Benchmark 2's yardstick: the two hot reads written lean by hand with Fastify 5 and node-postgres
 * (`bench/minimal/app.ts`), on the PostgreSQL database at `databaseUrl` (Kamai's, migrated and seeded);
 * with Kamai's per-request policy when `withPolicy` (default: MINIMAL_WITH_POLICY=1 in the environment).
 */
export function startMinimal(
  databaseUrl: string,
  nodeArgs: string[] = [],
  options: { withPolicy?: boolean } = {},
): Promise<Running> {
  const withPolicy = options.withPolicy ?? process.env.MINIMAL_WITH_POLICY === '1';
  return startNode({
    args: [...nodeArgs, '--import', 'tsx', join(root, 'bench/minimal/app.ts')],
    env: { DATABASE_URL: databaseUrl, MINIMAL_WITH_POLICY: withPolicy ? '1' : '0' },
    readyPath: '/ready',
  });
}

/**
 * Benchmark 1's analysis line: Fastify 5 with Kamai's per-request policy answering `/obj/test/t1`
 * with t1's bytes (`bench/minimal/hello.ts`); with `part`, the same bytes with no policy (`none`) or
 * one part of it (`bench/cpu-per-request.ts --entry=policy-headers`, …).
 */
export function startPolicyHello(nodeArgs: string[] = [], part?: 'none' | PolicyPart): Promise<Running> {
  return startNode({
    env: part ? { HELLO_POLICY: part } : {},
    args: [...nodeArgs, '--import', 'tsx', join(root, 'bench/minimal/hello.ts')],
    readyPath: '/obj/test/t1',
  });
}

/**
 * Benchmarks 3 and 4's yardstick: the money writes written by hand with Fastify 5 and node-postgres
 * (`bench/minimal/writes-server.ts`), on Kamai's PostgreSQL database at `databaseUrl`.
 */
export function startWriteCompetitor(databaseUrl: string, nodeArgs: string[] = []): Promise<Running> {
  return startNode({
    args: [...nodeArgs, '--import', 'tsx', join(root, 'bench/minimal/writes-server.ts')],
    env: { DATABASE_URL: databaseUrl },
    readyPath: '/ready',
  });
}
