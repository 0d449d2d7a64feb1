import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { root } from './processes';

/** autocannon's result, the fields the runner reads. */
export interface RunFigures {
  duration: number;
  requests: { total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  /** Base URL with the path of a plain GET load. */
  url: string;
  connections: number;
  /** Requests in flight per connection (1 unless the generator itself would be the bottleneck). */
  pipelining?: number;
  durationSec: number;
  /**
   * Requests a second, sent at even intervals over at most `connections` sockets (a paced, open-loop
   * sender in the generator process; see load-child.ts). Absent: autocannon, as fast as answered.
   */
  rate?: number;
  headers?: Record<string, string>;
  /**
   * Sent instead of GET `url`. autocannon cycles them per connection (each connection starts at the
   * first); with `spread` (and in paced runs) they are dealt in turn from one list over all
   * connections, so each is sent once before any is sent again (a write per user, many users).
   */
  requests?: LoadRequest[];
  spread?: boolean;
  /** Stop after this many requests (autocannon's `amount`) instead of after `durationSec`. */
  amount?: number;
}

export interface LoadResult {
  /** Responses a second, all statuses. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Responses by HTTP status. */
  statuses: Record<string, number>;
}

const idle: ChildProcess[] = [];
let nextId = 0;

function generator(): ChildProcess {
  const reused = idle.pop();
  if (reused) return reused;
  const child = fork(join(root, 'bench/lib/load-child.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // An idle generator must not keep the benchmark process alive.
  child.unref();
  child.channel?.unref();
  return child;
}

/**
 * Runs autocannon in a load generator process and returns its figures. Loads that run at the same
 * time (a flood and a measured read) get a process each.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = generator();
  const id = nextId++;
  child.channel?.ref();
  const result = await new Promise<RunFigures>((done, fail) => {
    const onExit = (code: number | null) => fail(new Error(`load generator exited with ${code}`));
    child.once('exit', onExit);
    child.on('message', function onMessage(message: { id: number; result?: RunFigures; error?: string }) {
      if (message.id !== id) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message.error || !message.result) fail(new Error(`autocannon failed: ${message.error}`));
      else done(message.result);
    });
    child.send({ id, spec });
  });
  child.channel?.unref();
  idle.push(child);
  return {
    rps: result.requests.total / Math.max(result.duration, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])),
  };
}

/** Ends the load generator processes (at the end of a run). */
export function stopLoadGenerators(): void {
  for (const child of idle.splice(0)) child.kill();
}
