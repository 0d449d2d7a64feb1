import { readFileSync } from 'node:fs';

/**
 * The functions a V8 CPU profile (`node --cpu-prof`) spent most self time in, in % of the non-idle
 * samples, summed by function name and file, after a summary by where the code comes from (ours,
 * drizzle, PGlite's JavaScript, its WebAssembly module, other packages, Node, native):
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [--top=30] [--skip=SECONDS]
 *
 * `--skip` leaves out the first seconds of the profile (start-up and warm-up of a bench run).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [--top=N] [--skip=SECONDS]');
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const top = Number(option('top') ?? 30);
const skipUs = Number(option('skip') ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

function origin({ functionName, url }: ProfileNode['callFrame']): string {
  if (url.startsWith('wasm://')) return 'WebAssembly';
  if (url.includes('/@electric-sql/pglite/')) return 'PGlite JavaScript';
  if (url.includes('/drizzle-orm/')) return 'drizzle-orm';
  const pkg = url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('file://')) return 'ours';
  if (url.startsWith('node:')) return 'Node';
  return functionName === '(garbage collector)' ? 'garbage collector' : `native ${functionName}`;
}

const self = new Map<string, number>();
const origins = new Map<string, number>();
let busy = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  const frame = byId.get(id)?.callFrame;
  if (at < skipUs || !frame || frame.functionName === '(idle)') return;
  busy += 1;
  const where = frame.url
    ? ` ${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist[^/]*\//, 'dist/')}`
    : '';
  const key = `${frame.functionName || '(anonymous)'}${where}`;
  self.set(key, (self.get(key) ?? 0) + 1);
  const from = origin(frame);
  origins.set(from, (origins.get(from) ?? 0) + 1);
});
const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
process.stdout.write(`${busy} non-idle samples\nby origin:\n`);
for (const [from, n] of [...origins].sort((a, b) => b[1] - a[1]).slice(0, 12))
  process.stdout.write(`${pct(n)}  ${from}\n`);
process.stdout.write('by function (self time):\n');
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${pct(n)}  ${key}\n`);
}
