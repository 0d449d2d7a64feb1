import type { Benchmark } from './lib/bench';
import { okRate, statusNote, writeRuns } from './lib/money';
import { median, progress, type Row } from './lib/report';

const MIN_RATIO = 0.5;
const P99_TARGET_MS = 50;

/**
 * 3. Money write: `withdraw/add` (many users, ₹0.05 each, every request a hold posting in its own
 * transaction) against pgbench's built-in TPC-B script on the same PostgreSQL server, same client
 * count, synchronous_commit on, alternated in the same rounds; then its p99 at half of its peak.
 */
export const moneyWrite: Benchmark = {
  id: 3,
  title: 'money write vs pgbench',
  async run(ctx) {
    const runs = await writeRuns(ctx);
    if (!runs) {
      progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      return [];
    }
    const pgbench = median(runs.pgbench.map((r) => r.rps));
    const figure = median(runs.withdraw.map(okRate));
    const ratio = figure / pgbench;
    const peakBad = statusNote(runs.withdraw);
    const halfBad = statusNote(runs.withdrawHalf);
    const p99 = median(runs.withdrawHalf.map((r) => r.p99));
    const rows: Row[] = [
      {
        name: `3 money write (PostgreSQL): POST withdraw/add peak, ${runs.clients} clients`,
        figure,
        unit: 'req/s',
        baseline: { label: `pgbench TPC-B -c ${runs.clients} -s ${runs.scale}`, value: pgbench, unit: 'tps' },
        ratio,
        target: `ratio ≥ ${MIN_RATIO.toFixed(2)}`,
        pass: ratio >= MIN_RATIO && !peakBad,
        note: `2xx/s, median of ${ctx.rounds}${peakBad ? `; ${peakBad}` : ''}`,
      },
      {
        name: `3 money write (PostgreSQL): POST withdraw/add p99 at half of peak (${runs.halfRate} req/s)`,
        figure: p99,
        unit: 'ms',
        baseline: { label: 'p50 at that rate', value: median(runs.withdrawHalf.map((r) => r.p50)), unit: 'ms' },
        target: `≤ ${P99_TARGET_MS} ms`,
        pass: p99 <= P99_TARGET_MS && !halfBad,
        note: `median of ${ctx.rounds}${halfBad ? `; ${halfBad}` : ''}`,
      },
    ];
    return rows;
  },
};
