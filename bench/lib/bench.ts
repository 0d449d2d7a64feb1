import type { Row } from './report';

export interface BenchContext {
  /** CI's smoke run: a round or two of a second each, only to keep the code working. */
  smoke: boolean;
  /** Rounds of each A/B alternation (3 in a full run). */
  rounds: number;
  /** Seconds of each load run. */
  seconds: number;
  /** The load of a peak-throughput run (smaller in a smoke run, whose runs last a second). */
  peak: { connections: number; pipelining: number };
  /** Minutes of benchmark 9's soak (`--soak-minutes=N`; 10 when absent; ignored by a smoke run). */
  soakMinutes?: number;
}

/** One benchmark of docs/performance.md's table; `id` is its number there. */
export interface Benchmark {
  id: number;
  title: string;
  run(ctx: BenchContext): Promise<Row[]>;
}

/**
 * Runs every contender once per round, rotating who goes first, so a burst of load from something
 * else on the machine does not always hit the same one. Returns each contender's results by name.
 */
export async function alternate<K extends string, T>(
  rounds: number,
  contenders: Record<K, () => Promise<T>>,
): Promise<Record<K, T[]>> {
  const names = Object.keys(contenders) as K[];
  const results = Object.fromEntries(names.map((name) => [name, [] as T[]])) as Record<K, T[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length] as K;
      results[name].push(await contenders[name]());
    }
  }
  return results;
}

/**
 * A peak-throughput run: enough requests in flight that one autocannon process is not the limit
 * (without pipelining it tops out near the bare node:http server's rate here), as in Fastify's own
 * benchmarks (-c 100 -p 10).
 */
export const PEAK = { connections: 100, pipelining: 10 };
