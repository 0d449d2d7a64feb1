import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Config } from '../../server/src/platform/config';
import { installHttpPolicy, serverOptions } from '../../server/src/platform/http-policy';
import { httpSeries } from '../../server/src/platform/metrics';
import type {} from '../../server/src/platform/types';

/**
 * A Fastify 5 app for the yardsticks of benchmarks 1 and 2: bare (`Fastify()`, no plugin or hook), or
 * with Kamai's own per-request policy, taken from the server's code as it runs there: its Fastify
 * options (request ids, the logger at warn, request logging off), `installHttpPolicy` (the API's
 * security headers and the request id on every answer, the shutdown refusal, the sampled request log,
 * the error handler) and the metrics' per-answer series. With the policy it is an analysis, not a
 * yardstick: what Kamai's ratio loses to that policy alone (docs/decisions/hot-read-yardstick.md).
 */
export function yardstickApp(withPolicy: boolean): FastifyInstance {
  if (!withPolicy) return Fastify();
  const app = Fastify(serverOptions({ TRUST_PROXY: false } as Config, { level: 'warn' }));
  const series = httpSeries(new Registry());
  installHttpPolicy(app, { slowMs: 1000, sampleRate: 0.01 }).observeAnswers((request, reply) =>
    series.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000),
  );
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
