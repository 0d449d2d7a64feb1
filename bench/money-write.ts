import type { Benchmark } from './lib/bench';
import { okRate, type Pair, statusNote, writeRuns } from './lib/money';
import { median, progress, type Row } from './lib/report';

const MIN_RATIO = 0.8;
const P99_TARGET_MS = 50;

/** Kamai against the write yardstick: medians of each one's 2xx/s over the same rounds. */
export function against(name: string, pair: Pair, rounds: number): Row {
  const figure = median(pair.kamai.map(okRate));
  const baseline = median(pair.minimal.map(okRate));
  const bad = [
    statusNote(pair.kamai),
    statusNote(pair.minimal) && `yardstick ${statusNote(pair.minimal)}`,
    // A ratio against nothing is no figure (a run too short for any answer, or none a 2xx).
    !(baseline > 0) && 'the yardstick answered no 2xx',
  ]
    .filter(Boolean)
    .join('; ');
  const perRound = pair.kamai.map((k, i) => okRate(k) / okRate(pair.minimal[i] as (typeof pair.minimal)[number]));
  const range = `per round ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}`;
  return {
    name,
    figure,
    unit: 'req/s',
    baseline: { label: 'hand-written Fastify + pg', value: baseline, unit: 'req/s' },
    ratio: figure / baseline,
    target: `ratio ≥ ${MIN_RATIO.toFixed(2)}`,
    pass: figure / baseline >= MIN_RATIO && !bad,
    note: `2xx/s, median of ${rounds}, ${range}, p99 ${median(pair.kamai.map((r) => r.p99)).toFixed(0)} / ${median(pair.minimal.map((r) => r.p99)).toFixed(0)} ms${bad ? `; ${bad}` : ''}`,
  };
}

/**
 * 3. Money writes: `withdraw/add` (many users, ₹0.05 each, every request a hold posting in its own
 * transaction) and `withdraw/review` (approving pending withdrawals) against the same writes written
 * by hand with Fastify 5 and node-postgres (bench/minimal/writes.ts) on the same database, same client
 * count, alternated in the same rounds; then withdraw/add's p99 at half of Kamai's peak; pgbench's
 * TPC-B on the same server as an informative line.
 */
export const moneyWrite: Benchmark = {
  id: 3,
  title: 'money writes vs hand-written Fastify + pg',
  async run(ctx) {
    const runs = await writeRuns(ctx);
    if (!runs) {
      progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      return [];
    }
    const halfBad = statusNote(runs.withdrawHalf.kamai);
    const p99 = median(runs.withdrawHalf.kamai.map((r) => r.p99));
    const withdraw = median(runs.withdraw.kamai.map(okRate));
    const pgbench = median(runs.pgbench.map((r) => r.rps));
    return [
      against(`3 money write (PostgreSQL): POST withdraw/add peak, ${runs.clients} clients`, runs.withdraw, ctx.rounds),
      against(
        `3 money write (PostgreSQL): POST admin/withdraw/review approve peak, ${runs.clients} clients`,
        runs.review,
        ctx.rounds,
      ),
      {
        name: `3 money write (PostgreSQL): POST withdraw/add p99 at half of Kamai's peak (${runs.halfRate} req/s)`,
        figure: p99,
        unit: 'ms',
        baseline: {
          label: 'hand-written at that rate',
          value: median(runs.withdrawHalf.minimal.map((r) => r.p99)),
          unit: 'ms',
        },
        target: `≤ ${P99_TARGET_MS} ms`,
        pass: p99 <= P99_TARGET_MS && !halfBad,
        note: `median of ${ctx.rounds}, p50 ${median(runs.withdrawHalf.kamai.map((r) => r.p50)).toFixed(0)} ms${halfBad ? `; ${halfBad}` : ''}`,
      },
      {
        name: `3 money write (PostgreSQL): POST withdraw/add peak against pgbench (informative)`,
        figure: withdraw,
        unit: 'req/s',
        baseline: { label: `pgbench TPC-B -c ${runs.clients} -s ${runs.scale}`, value: pgbench, unit: 'tps' },
        ratio: withdraw / pgbench,
        target: 'informative',
        pass: undefined,
        note: `median of ${ctx.rounds}`,
      },
    ];
  },
};
