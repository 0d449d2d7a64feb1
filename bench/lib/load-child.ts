import autocannon from 'autocannon';
import type { LoadSpec } from './load';

/**
 * A load generator process of its own (issue 7: "autocannon in its own process"), so its CPU use
 * and timers are not mixed with the benchmark runner's. Kept alive between runs (spawning one per
 * run cost ~0.5 s each); takes a LoadSpec per message and answers with autocannon's result.
 */
process.on('message', (message: { id: number; spec: LoadSpec }) => {
  const { id, spec } = message;
  autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      pipelining: spec.pipelining ?? 1,
      duration: spec.durationSec,
      overallRate: spec.rate,
      headers: spec.headers,
      requests: spec.requests?.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: r.body })),
      timeout: 10,
    },
    (error, result) => {
      process.send?.(error ? { id, error: error.stack ?? error.message } : { id, result });
    },
  );
});
