import { readFileSync } from 'node:fs';

/**
 * The functions a V8 CPU profile (`node --cpu-prof`) spent most self time in, in % of the non-idle
 * samples, summed by function name and file:
 *
 *   npx tsx bench/profile-top.ts <file.cpuprofile> [--top=30]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [--top=N]');
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let busy = 0;
for (const id of profile.samples) {
  const frame = byId.get(id)?.callFrame;
  if (!frame || frame.functionName === '(idle)') continue;
  busy += 1;
  const where = frame.url
    ? ` ${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}`
    : '';
  const key = `${frame.functionName || '(anonymous)'}${where}`;
  self.set(key, (self.get(key) ?? 0) + 1);
}
process.stdout.write(`${busy} non-idle samples\n`);
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${((100 * n) / busy).toFixed(1).padStart(5)}%  ${key}\n`);
}
