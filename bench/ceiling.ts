import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, type Benchmark } from './lib/bench';
import { runLoad } from './lib/load';
import { startFastifyHello, startHello, startServer } from './lib/processes';
import { median, progress } from './lib/report';

/** Interleaved rounds of a full run (a smoke run has one): medians of 9 move less on a shared machine. */
const ROUNDS = 9;

/**
 * 1. Framework ceiling: our liveness route against a bare Fastify 5 hello (no plugin, hook or schema)
 * answering the same kind of JSON: what our stack (request id, security headers, the contract's route
 * table, the envelope) costs on top of the framework. Informative, in the same rounds: the bare
 * Fastify hello against node:http, the ratio the framework itself reaches on this machine.
 */
export const ceiling: Benchmark = {
  id: 1,
  title: 'framework ceiling',
  async run(ctx) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const hello = await startHello();
    const fastify = await startFastifyHello();
    const ours = await startServer({ DATA_DIR: dataDir });
    const rounds = ctx.smoke ? ctx.rounds : ROUNDS;
    try {
      const load = (url: string) => runLoad({ url, ...ctx.peak, durationSec: ctx.seconds });
      if (!ctx.smoke) {
        progress('warming up the three servers');
        await load(`${hello.url}/`);
        await load(`${fastify.url}/`);
        await load(`${ours.url}/obj/test/t1`);
      }
      progress(`${rounds} rounds of ${ctx.seconds} s each, alternating`);
      const runs = await alternate(rounds, {
        hello: () => load(`${hello.url}/`),
        fastify: () => load(`${fastify.url}/`),
        ours: () => load(`${ours.url}/obj/test/t1`),
      });
      const bare = median(runs.fastify.map((r) => r.rps));
      const bareBad = runs.fastify.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const node = median(runs.hello.map((r) => r.rps));
      const figure = median(runs.ours.map((r) => r.rps));
      const bad = runs.ours.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const ratio = figure / bare;
      const perRound = runs.ours.map((r, i) => r.rps / (runs.fastify[i]?.rps ?? Number.NaN));
      return [
        {
          name: '1 framework ceiling: GET /obj/test/t1',
          figure,
          unit: 'req/s',
          baseline: { label: 'bare Fastify 5 hello', value: bare, unit: 'req/s' },
          ratio,
          target: 'ratio ≥ 0.85',
          pass: ratio >= 0.85 && bad === 0 && bareBad === 0,
          note: `median of ${rounds}, ${ctx.peak.connections} connections × ${ctx.peak.pipelining} pipelined; per-round ratios ${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}${bad + bareBad ? `, ${bad + bareBad} non-2xx/errors` : ''}`,
        },
        {
          name: '1 framework ceiling: bare Fastify 5 hello (no plugins, same JSON)',
          figure: bare,
          unit: 'req/s',
          baseline: { label: 'bare node:http hello', value: node, unit: 'req/s' },
          ratio: bare / node,
          target: 'informative: the ratio Fastify itself reaches here',
          pass: undefined,
          note: `same rounds as t1; t1 reaches ${(figure / node).toFixed(2)} of node:http`,
        },
      ];
    } finally {
      await Promise.all([hello.stop(), fastify.stop(), ours.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
