import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, type Benchmark } from './lib/bench';
import { runLoad } from './lib/load';
import { startHello, startServer } from './lib/processes';
import { median, progress } from './lib/report';

/** 1. Framework ceiling: our liveness route against node:http answering the same kind of JSON. */
export const ceiling: Benchmark = {
  id: 1,
  title: 'framework ceiling',
  async run(ctx) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const hello = await startHello();
    const ours = await startServer({ DATA_DIR: dataDir });
    try {
      const load = (url: string) => runLoad({ url, ...ctx.peak, durationSec: ctx.seconds });
      if (!ctx.smoke) {
        progress('warming up both servers');
        await load(`${hello.url}/`);
        await load(`${ours.url}/obj/test/t1`);
      }
      progress(`${ctx.rounds} rounds of ${ctx.seconds} s each, alternating`);
      const runs = await alternate(ctx.rounds, {
        hello: () => load(`${hello.url}/`),
        ours: () => load(`${ours.url}/obj/test/t1`),
      });
      const baseline = median(runs.hello.map((r) => r.rps));
      const figure = median(runs.ours.map((r) => r.rps));
      const bad = runs.ours.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const ratio = figure / baseline;
      return [
        {
          name: '1 framework ceiling: GET /obj/test/t1',
          figure,
          unit: 'req/s',
          baseline: { label: 'bare node:http hello', value: baseline, unit: 'req/s' },
          ratio,
          target: 'ratio ≥ 0.90',
          pass: ratio >= 0.9 && bad === 0,
          note: `median of ${ctx.rounds}, ${ctx.peak.connections} connections × ${ctx.peak.pipelining} pipelined${bad ? `, ${bad} non-2xx/errors` : ''}`,
        },
      ];
    } finally {
      await Promise.all([hello.stop(), ours.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
