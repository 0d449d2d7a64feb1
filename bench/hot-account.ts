import type { Benchmark } from './lib/bench';
import { okRate, statusNote, writeRuns } from './lib/money';
import { median, progress } from './lib/report';
import { against } from './money-write';

const MIN_RATIO = 0.5;

/**
 * 4. Hot account: `task/finish` of custom tasks by many users at once, every request a reward posting
 * from the one `platform_rewards` account and two rebate postings into the pending rebates of the
 * one upline chain that invited them all: against the same write by hand (bench/minimal/writes.ts),
 * and against benchmark 3's `withdraw/add` (postings between two accounts of the requesting user),
 * same clients, alternated in the same rounds.
 */
export const hotAccount: Benchmark = {
  id: 4,
  title: 'hot account',
  async run(ctx) {
    const runs = await writeRuns(ctx);
    if (!runs) {
      progress('PostgreSQL: no server at BENCH_POSTGRES_URL or 127.0.0.1:5432, skipped');
      return [];
    }
    const uniform = median(runs.withdraw.kamai.map(okRate));
    const figure = median(runs.finish.kamai.map(okRate));
    const ratio = figure / uniform;
    const bad = statusNote(runs.finish.kamai);
    return [
      against(
        `4 hot account (PostgreSQL): POST task/finish peak, two rebate levels to one upline chain, ${runs.clients} clients`,
        runs.finish,
        ctx.rounds,
      ),
      {
        name: `4 hot account (PostgreSQL): POST task/finish peak against withdraw/add, ${runs.clients} users at once`,
        figure,
        unit: 'req/s',
        baseline: { label: 'uniform withdraw/add (3)', value: uniform, unit: 'req/s' },
        ratio,
        target: `ratio ≥ ${MIN_RATIO.toFixed(2)}`,
        pass: ratio >= MIN_RATIO && !bad,
        note: `2xx/s, median of ${ctx.rounds}${bad ? `; ${bad}` : ''}`,
      },
    ];
  },
};
