import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, type Benchmark } from './lib/bench';
import { runLoad } from './lib/load';
import { startFastifyHello, startHello, startServer } from './lib/processes';
import { median, progress } from './lib/report';

/**
 * 1. Framework ceiling: our liveness route against node:http answering the same kind of JSON; and,
 * informative, a bare Fastify 5 hello against the same node:http in the same rounds: the ratio the
 * framework itself reaches on this machine, which bounds what t1 can.
 */
export const ceiling: Benchmark = {
  id: 1,
  title: 'framework ceiling',
  async run(ctx) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const hello = await startHello();
    const fastify = await startFastifyHello();
    const ours = await startServer({ DATA_DIR: dataDir });
    try {
      const load = (url: string) => runLoad({ url, ...ctx.peak, durationSec: ctx.seconds });
      if (!ctx.smoke) {
        progress('warming up the three servers');
        await load(`${hello.url}/`);
        await load(`${fastify.url}/`);
        await load(`${ours.url}/obj/test/t1`);
      }
      progress(`${ctx.rounds} rounds of ${ctx.seconds} s each, alternating`);
      const runs = await alternate(ctx.rounds, {
        hello: () => load(`${hello.url}/`),
        fastify: () => load(`${fastify.url}/`),
        ours: () => load(`${ours.url}/obj/test/t1`),
      });
      const bare = median(runs.fastify.map((r) => r.rps));
      const bareBad = runs.fastify.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
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
        {
          name: '1 framework ceiling: bare Fastify 5 hello (no plugins, same JSON)',
          figure: bare,
          unit: 'req/s',
          baseline: { label: 'bare node:http hello', value: baseline, unit: 'req/s' },
          ratio: bare / baseline,
          target: 'informative: the ratio Fastify itself reaches here',
          pass: undefined,
          note: `same rounds as t1; t1 reaches ${(figure / bare).toFixed(2)} of it${bareBad ? `, ${bareBad} non-2xx/errors` : ''}`,
        },
      ];
    } finally {
      await Promise.all([hello.stop(), fastify.stop(), ours.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
