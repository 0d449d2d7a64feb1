import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alternate, type Benchmark } from './lib/bench';
import { runLoad } from './lib/load';
import { type Running, startFastifyHello, startHello, startPolicyHello, startServer } from './lib/processes';
import { median, progress } from './lib/report';

/** Interleaved rounds of a full run (a smoke run has one): medians of 9 move less on a shared machine. */
const ROUNDS = 9;

/**
 * The analysis line is worth nothing if it answers other bytes than t1: compares both bodies and the
 * names of both answers' headers, and throws naming the difference.
 */
async function checkSameAnswer(kamai: Running, policy: Running): Promise<void> {
  const [ours, theirs] = await Promise.all(
    [kamai, policy].map(async (server) => {
      const res = await fetch(`${server.url}/obj/test/t1`);
      const headers = [...res.headers.keys()].filter((name) => name !== 'date').sort();
      return { status: res.status, body: await res.text(), headers: headers.join(',') };
    }),
  );
  if (!ours || !theirs) throw new Error('no answer');
  if (
    ours.status === 200 &&
    ours.status === theirs.status &&
    ours.body === theirs.body &&
    ours.headers === theirs.headers
  )
    return;
  throw new Error(
    `benchmark 1: the policy hello answers differently from t1:\n  t1     ${ours.status} ${ours.body} [${ours.headers}]\n  policy ${theirs.status} ${theirs.body} [${theirs.headers}]`,
  );
}

/**
 * 1. Framework ceiling: our liveness route against a bare Fastify 5 hello (no plugin, hook or schema)
 * answering the same kind of JSON: what our stack (request id, security headers, the contract's route
 * table, the envelope) costs on top of the framework. Informative, in the same rounds: the bare
 * Fastify hello against node:http, the ratio the framework itself reaches on this machine; and t1
 * against Fastify with Kamai's per-request policy answering t1's bytes (bench/minimal/hello.ts), which
 * splits t1's gap into what that policy costs and what the rest of Kamai's stack costs.
 */
export const ceiling: Benchmark = {
  id: 1,
  title: 'framework ceiling',
  async run(ctx) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const hello = await startHello();
    const fastify = await startFastifyHello();
    const ours = await startServer({ DATA_DIR: dataDir });
    const policy = await startPolicyHello();
    const rounds = ctx.smoke ? ctx.rounds : ROUNDS;
    try {
      const load = (url: string) => runLoad({ url, ...ctx.peak, durationSec: ctx.seconds });
      await checkSameAnswer(ours, policy);
      if (!ctx.smoke) {
        progress('warming up the four servers');
        await load(`${hello.url}/`);
        await load(`${fastify.url}/`);
        await load(`${policy.url}/obj/test/t1`);
        await load(`${ours.url}/obj/test/t1`);
      }
      progress(`${rounds} rounds of ${ctx.seconds} s each, alternating`);
      const runs = await alternate(rounds, {
        hello: () => load(`${hello.url}/`),
        fastify: () => load(`${fastify.url}/`),
        policy: () => load(`${policy.url}/obj/test/t1`),
        ours: () => load(`${ours.url}/obj/test/t1`),
      });
      const withPolicy = median(runs.policy.map((r) => r.rps));
      const bare = median(runs.fastify.map((r) => r.rps));
      const bareBad = runs.fastify.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const node = median(runs.hello.map((r) => r.rps));
      const figure = median(runs.ours.map((r) => r.rps));
      const bad = runs.ours.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      const ratio = figure / bare;
      const perRound = runs.ours.map((r, i) => r.rps / (runs.fastify[i]?.rps ?? Number.NaN));
      const perRoundPolicy = runs.ours.map((r, i) => r.rps / (runs.policy[i]?.rps ?? Number.NaN));
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
        {
          name: "1 framework ceiling: t1 against Fastify 5 with Kamai's per-request policy (same bytes)",
          figure,
          unit: 'req/s',
          baseline: { label: "Fastify + Kamai's policy", value: withPolicy, unit: 'req/s' },
          ratio: figure / withPolicy,
          target: 'informative: what the rest of the stack costs beyond the policy',
          pass: undefined,
          note: `same rounds; the policy alone reaches ${(withPolicy / bare).toFixed(2)} of bare Fastify; per-round ratios ${Math.min(...perRoundPolicy).toFixed(2)}-${Math.max(...perRoundPolicy).toFixed(2)}`,
        },
      ];
    } finally {
      await Promise.all([hello.stop(), fastify.stop(), policy.stop(), ours.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
