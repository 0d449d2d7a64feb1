import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import type { Config } from '../../server/src/platform/config';
import {
  API_SECURITY_HEADERS,
  installHttpPolicy,
  requestIds,
  serverOptions,
} from '../../server/src/platform/http-policy';
import { httpSeries } from '../../server/src/platform/metrics';
import type {} from '../../server/src/platform/types';

/**
 * One part of Kamai's per-request policy, alone on a bare Fastify, for the split of what the policy
 * costs t1 (`bench/cpu-per-request.ts --entry=policy-options`, …; docs/performance.md): `options` Kamai's Fastify options (its logger at warn and a lazy
 * child per request, request ids, request logging off); `headers` the API's security headers and the
 * request id set by an onRequest hook, as `installHttpPolicy` sets them on API paths; `observer` the
 * metrics' per-answer series recorded by an onResponse hook, as the server's one observer does.
 */
export type PolicyPart = 'options' | 'headers' | 'observer';
export const POLICY_PARTS: readonly PolicyPart[] = ['options', 'headers', 'observer'];

function recordAnswers(series: ReturnType<typeof httpSeries>) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    series.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
}

function kamaiOptions() {
  return serverOptions({ TRUST_PROXY: false } as Config, { level: 'warn' });
}

function withPart(part: PolicyPart): FastifyInstance {
  if (part === 'options') return Fastify(kamaiOptions()) as unknown as FastifyInstance;
  const app = Fastify();
  if (part === 'headers') {
    const ids = requestIds();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(API_SECURITY_HEADERS);
      reply.header('x-request-id', ids());
      done();
    });
  } else {
    const record = recordAnswers(httpSeries(new Registry()));
    app.addHook('onResponse', (request, reply, done) => {
      record(request, reply);
      done();
    });
  }
  return app;
}

/**
 * A Fastify 5 app for the yardsticks of benchmarks 1 and 2: bare (`Fastify()`, no plugin or hook), or
 * with Kamai's own per-request policy, taken from the server's code as it runs there: its Fastify
 * options (request ids, the logger at warn, request logging off), `installHttpPolicy` (the API's
 * security headers and the request id on every answer, the shutdown refusal, the sampled request log,
 * the error handler) and the metrics' per-answer series. With the policy it is an analysis, not a
 * yardstick: what Kamai's ratio loses to that policy alone (docs/decisions/hot-read-yardstick.md).
 * With one part of the policy only (`PolicyPart`), it splits that loss further.
 */
export function yardstickApp(policy: boolean | PolicyPart): FastifyInstance {
  if (policy === false) return Fastify();
  if (policy !== true) return withPart(policy);
  const app = Fastify(kamaiOptions());
  installHttpPolicy(app, { slowMs: 1000, sampleRate: 0.01 }).observeAnswers(recordAnswers(httpSeries(new Registry())));
  return app as unknown as FastifyInstance;
}

/** Listens on PORT and HOST, and closes cleanly on SIGTERM (so `node --cpu-prof` writes its profile). */
export function serve(app: FastifyInstance, onClose: () => Promise<unknown> = async () => undefined): void {
  app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
  process.once('SIGTERM', () => {
    app
      .close()
      .then(onClose)
      .finally(() => process.exit(0));
  });
}
