import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Benchmark } from './lib/bench';
import { root, startHello, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';
import { seedLedgerSql } from './lib/seed-ledger';

const TARGET_MS = 3000;

async function timeToReady(env: Record<string, string>): Promise<number> {
  const server = await startServer({ DATABASE_URL: '', ...env });
  await server.stop();
  return server.readyMs;
}

async function helloStart(): Promise<number> {
  const hello = await startHello();
  await hello.stop();
  return hello.readyMs;
}

/** What the template saves: PGlite creating a data directory (initdb in WebAssembly), in a fresh process. */
async function initdbMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'kamai-bench-initdb-'));
  const script = `import('@electric-sql/pglite').then(async ({ PGlite }) => { const t = performance.now(); const db = await PGlite.create(process.argv[1]); process.stdout.write(String(performance.now() - t)); await db.close(); })`;
  try {
    const child = spawn(process.execPath, ['-e', script, join(dir, 'pglite')], { cwd: root });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await new Promise((done) => child.once('exit', done));
    return Number(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Grows the ledger of a stopped server's PGlite directory with SQL. */
async function seed(dataDir: string, entries: number): Promise<number> {
  const started = performance.now();
  const db = await PGlite.create(join(dataDir, 'pglite'));
  try {
    await db.exec(seedLedgerSql({ entries, users: Math.min(1000, Math.max(1, entries / 100)) }));
  } finally {
    await db.close();
  }
  return performance.now() - started;
}

/**
 * 8. Cold start as the quick start does it (`npm start`: the bundle, PGlite under an empty DATA_DIR)
 * to readiness (/obj/test/t2), a restart on the same directory, and a restart after the ledger has
 * grown to 10^6 entries; each against a bare node:http process started in the same round.
 */
export const coldStart: Benchmark = {
  id: 8,
  title: 'cold start',
  async run(ctx) {
    const cold: number[] = [];
    const warm: number[] = [];
    const base: number[] = [];
    const grown: number[] = [];
    const entries = ctx.smoke ? 1000 : 1_000_000;
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    let seedMs = Number.NaN;
    try {
      progress(`${ctx.rounds} rounds: bare node:http start, then empty DATA_DIR, then restart`);
      for (let i = 0; i < ctx.rounds; i += 1) {
        base.push(await helloStart());
        rmSync(dataDir, { recursive: true, force: true });
        cold.push(await timeToReady({ DATA_DIR: dataDir }));
        warm.push(await timeToReady({ DATA_DIR: dataDir }));
      }
      progress(`seeding ${entries} ledger entries with SQL`);
      seedMs = await seed(dataDir, entries);
      progress(`${ctx.rounds} restarts with ${entries} entries`);
      for (let i = 0; i < ctx.rounds; i += 1) grown.push(await timeToReady({ DATA_DIR: dataDir }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const baseline = { label: 'bare node:http start', value: median(base), unit: 'ms' };
    const row = (name: string, values: number[], note: string): Row => {
      const figure = median(values);
      return {
        name,
        figure,
        unit: 'ms',
        baseline,
        ratio: figure / baseline.value,
        target: `≤ ${TARGET_MS} ms`,
        pass: figure <= TARGET_MS,
        note: `median of ${values.length}${note}`,
      };
    };
    const rows = [
      row('8 cold start: empty DATA_DIR → ready (PGlite)', cold, ', from the build’s PGlite template'),
      row('8 restart: same DATA_DIR → ready (PGlite)', warm, ''),
      row(
        `8 restart with ${entries === 1_000_000 ? '10^6' : entries} ledger entries → ready (PGlite)`,
        grown,
        `, seeded in ${(seedMs / 1000).toFixed(1)} s`,
      ),
    ];
    if (!ctx.smoke) {
      progress('PGlite initdb alone (what an empty DATA_DIR costs without the template)');
      const initdb = await initdbMs();
      rows.push({
        name: '8 PGlite initdb of an empty directory (skipped by the template)',
        figure: initdb,
        unit: 'ms',
        baseline,
        ratio: initdb / baseline.value,
        target: 'informative',
        pass: undefined,
        note: '1 run',
      });
    }
    return rows;
  },
};
