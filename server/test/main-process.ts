import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** One JSON log line, or undefined for plain text (the first-start message). */
export function logLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * A database for `server/src/main.ts` processes of one test file: a PostgreSQL database of its own when
 * DATABASE_URL is set, else a PGlite directory; `env` is what the process needs to open it.
 */
export async function mainDatabase(prefix: string) {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const dataDir = mkdtempSync(join(tmpdir(), `kamai-${prefix}-`));
    return {
      env: { DATA_DIR: dataDir } as Record<string, string>,
      dataDir,
      databaseUrl: undefined,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `kamai_${prefix}_${process.pid}_${Date.now()}_${randomInt(1e6)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() } as Record<string, string>,
    dataDir: undefined,
    databaseUrl: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export interface MainRun {
  /** Its exit code; null while it serves. */
  code: number | null;
  /** Every line it wrote, stdout and stderr. */
  lines: string[];
  /** The base URL once it logged "ready". */
  url?: string;
  child: ChildProcess;
}

/**
 * Runs `server/src/main.ts` with only `env` (and PATH, HOME), in `cwd` (the repository root unless
 * given), until it logs "ready" (it then keeps serving: stop it with `stopMain`) or exits.
 */
export async function runMain(env: Record<string, string>, cwd = root): Promise<MainRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'server/src/main.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // tsx compiles the server from source at start: on a loaded 2-core machine that alone can take a minute.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { code: child.exitCode, lines, child };
    const ready = lines.map(logLine).find((l) => l?.msg === 'ready');
    if (ready) return { code: null, lines, child, url: `http://127.0.0.1:${ready.port}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${lines.join('\n')}`);
}

/** SIGTERM, and waits for the exit. */
export function stopMain(run: MainRun) {
  return new Promise<void>((done) => {
    if (run.child.exitCode !== null || run.child.signalCode !== null) return done();
    run.child.once('exit', () => done());
    run.child.kill('SIGTERM');
  });
}
