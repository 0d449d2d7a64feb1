import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Milliseconds from spawning `args` until `url` answers 200. */
async function timeToReady(args: string[], env: Record<string, string>, path: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}${path}`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error('not ready after 120 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const BASELINE = `require('node:http').createServer((q,s)=>s.end('{}')).listen(Number(process.env.PORT),'127.0.0.1')`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Cold start of the quick start: an empty PGlite data directory to readiness (/obj/test/t2), and a
 * restart on the same directory, each against a bare node:http process started in the same round.
 */
export async function coldStart(rounds: number) {
  const cold: number[] = [];
  const warm: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    base.push(await timeToReady(['-e', BASELINE], {}, '/'));
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    try {
      const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
      cold.push(await timeToReady(['--import', 'tsx', 'server/src/main.ts'], env, '/obj/test/t2'));
      warm.push(await timeToReady(['--import', 'tsx', 'server/src/main.ts'], env, '/obj/test/t2'));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const baseline = median(base);
  const target = 3000;
  return [
    { name: 'cold start, empty data dir → ready (PGlite)', figure: median(cold), baseline, target },
    { name: 'restart, existing data dir → ready (PGlite)', figure: median(warm), baseline, target },
  ];
}
