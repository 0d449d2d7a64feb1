import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { authRead } from './auth-read';
import { ceiling } from './ceiling';
import { coldStart } from './cold-start';
import { growth } from './growth';
import { hashing } from './hashing';
import { hotAccount } from './hot-account';
import { type BenchContext, type Benchmark, PEAK } from './lib/bench';
import { stopLoadGenerators } from './lib/load';
import { root, SERVER_ENTRY, WEB_CONCURRENCY } from './lib/processes';
import { formatRow } from './lib/report';
import { moneyWrite } from './money-write';
import { soak } from './soak';
import { web } from './web';

/**
 * The benchmarks, by their number in docs/performance.md's table. Each prints one line per figure: figure, baseline,
 * ratio, PASS/FAIL.
 */
const BENCHMARKS: Benchmark[] = [ceiling, authRead, moneyWrite, hotAccount, hashing, growth, web, coldStart, soak];

function parseArgs(argv: string[]) {
  const smoke = argv.includes('--smoke');
  const build = !argv.includes('--no-build');
  const only = argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .map(Number);
  const soak = argv.find((arg) => arg.startsWith('--soak-minutes='))?.slice('--soak-minutes='.length);
  const soakMinutes = soak === undefined ? undefined : Number(soak);
  if (soakMinutes !== undefined && !(Number.isInteger(soakMinutes) && soakMinutes >= 2)) {
    throw new Error('--soak-minutes must be a whole number of at least 2');
  }
  return { smoke, only, build, soakMinutes };
}

/**
 * `npm run bench` (full, ~25 min with the 10-minute soak) or `npm run bench -- --smoke` (CI: seconds
 * per benchmark, to keep the code working); `--only=1,8` runs some, `--no-build` skips the build,
 * `--soak-minutes=N` shortens benchmark 9's soak (10 minutes; at least 2: it compares the second
 * minute's memory with the last's). A FAIL figure is a finding, not an error: the exit code is non-zero only when a
 * benchmark could not run.
 */
async function main() {
  const { smoke, only, build, soakMinutes } = parseArgs(process.argv.slice(2));
  if (build) {
    // The benchmarks measure the build (server bundle, PGlite template, web/dist): make it current.
    process.stderr.write('building (npm run build; --no-build skips)\n');
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const ctx: BenchContext = smoke
    ? { smoke, rounds: 1, seconds: 0.5, peak: { connections: 10, pipelining: 1 } }
    : { smoke, rounds: 3, seconds: 5, peak: PEAK, soakMinutes };
  const started = performance.now();
  // The configuration every figure of the run measures (docs/performance.md).
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stderr.write(
    `load average ${load}; PostgreSQL servers run WEB_CONCURRENCY=${WEB_CONCURRENCY}; server ${SERVER_ENTRY}\n`,
  );
  const crashed: string[] = [];
  for (const bench of BENCHMARKS) {
    if (only && !only.includes(bench.id)) continue;
    process.stderr.write(`${bench.id}. ${bench.title}${smoke ? ' (smoke)' : ''}\n`);
    try {
      for (const row of await bench.run(ctx)) console.log(formatRow(row));
    } catch (error) {
      crashed.push(`${bench.id} ${bench.title}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`${bench.id} ${bench.title}: ERROR`, error);
    }
  }
  stopLoadGenerators();
  process.stderr.write(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
  process.stderr.write(`benchmarks took ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  // Repeated last, so that the tail of a long log names what could not run.
  for (const line of crashed) process.stderr.write(`could not run: ${line.split('\n').slice(0, 4).join(' / ')}\n`);
  if (crashed.length) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
