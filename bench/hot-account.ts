import type { Benchmark } from './lib/bench';
import { okRate, statusNote, writeRuns } from './lib/money';
import { median, progress } from './lib/report';

const MIN_RATIO = 0.3;

/**
 * 4. Hot account: `task/finish` of custom tasks by many users, every request a reward posting whose
 * debit is the one `platform_rewards` account, against benchmark 3's uniform `withdraw/add` load
 * (postings between two accounts of the requesting user), same clients, alternated in the same rounds.
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
    const uniform = median(runs.withdraw.map(okRate));
    const figure = median(runs.hot.map(okRate));
    const ratio = figure / uniform;
    const bad = statusNote(runs.hot);
    return [
      {
        name: `4 hot account (PostgreSQL): POST task/finish peak, every posting from platform_rewards, ${runs.clients} clients`,
        figure,
        unit: 'req/s',
        baseline: { label: 'uniform withdraw/add (3)', value: uniform, unit: 'req/s' },
        ratio,
        target: `ratio ≥ ${MIN_RATIO.toFixed(2)}`,
        pass: ratio >= MIN_RATIO && !bad,
        note: `2xx/s, median of ${ctx.rounds}, p99 ${median(runs.hot.map((r) => r.p99)).toFixed(0)} ms${bad ? `; ${bad}` : ''}`,
      },
      {
        name: `4 hot account (PostgreSQL): the same with the default rebates, every credit also locking the one inviter's wallet (informative)`,
        figure: median(runs.inviter.map(okRate)),
        unit: 'req/s',
        baseline: { label: 'uniform withdraw/add (3)', value: uniform, unit: 'req/s' },
        ratio: median(runs.inviter.map(okRate)) / uniform,
        target: 'informative',
        pass: undefined,
        note: `2xx/s, median of ${ctx.rounds}, p99 ${median(runs.inviter.map((r) => r.p99)).toFixed(0)} ms${statusNote(runs.inviter) ? `; ${statusNote(runs.inviter)}` : ''}`,
      },
    ];
  },
};
