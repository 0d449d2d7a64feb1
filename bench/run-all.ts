import { execFileSync } from 'node:child_process';
import { authRead } from './auth-read';
import { ceiling } from './ceiling';
import { coldStart } from './cold-start';
import { hashing } from './hashing';
import { type BenchContext, type Benchmark, PEAK } from './lib/bench';
import { stopLoadGenerators } from './lib/load';
import { root } from './lib/processes';
import { formatRow } from './lib/report';
import { web } from './web';

/**
 * Every benchmark of issue 7 that exists so far, by its number there (3, 4, 6 and 9 need
 * withdrawals). Each prints one line per figure: figure, baseline, ratio, PASS/FAIL.
 */
const BENCHMARKS: Benchmark[] = [ceiling, authRead, hashing, web, coldStart];

function parseArgs(argv: string[]) {
  const smoke = argv.includes('--smoke');
  const build = !argv.includes('--no-build');
  const only = argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .map(Number);
  return { smoke, only, build };
}

/**
 * `npm run bench` (full, ~10 min) or `npm run bench -- --smoke` (CI: under a minute, to keep the
 * code working); `--only=1,8` runs some, `--no-build` skips the build. A FAIL figure is a finding, not an error: the exit code is non-zero only when a
 * benchmark could not run.
 */
async function main() {
  const { smoke, only, build } = parseArgs(process.argv.slice(2));
  if (build) {
    // The benchmarks measure the build (server bundle, PGlite template, web/dist): make it current.
    process.stderr.write('building (npm run build; --no-build skips)\n');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const ctx: BenchContext = smoke
    ? { smoke, rounds: 1, seconds: 0.5, peak: { connections: 10, pipelining: 1 } }
    : { smoke, rounds: 3, seconds: 5, peak: PEAK };
  const started = performance.now();
  let crashed = 0;
  for (const bench of BENCHMARKS) {
    if (only && !only.includes(bench.id)) continue;
    process.stderr.write(`${bench.id}. ${bench.title}${smoke ? ' (smoke)' : ''}\n`);
    try {
      for (const row of await bench.run(ctx)) console.log(formatRow(row));
    } catch (error) {
      crashed += 1;
      console.error(`${bench.id} ${bench.title}: ERROR`, error);
    }
  }
  stopLoadGenerators();
  process.stderr.write(`benchmarks took ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  if (crashed) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
