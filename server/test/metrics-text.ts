import type { FastifyInstance } from 'fastify';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric, read from the app's own /metrics (Prometheus text format) as a scraper would. */
export async function scrapeMetric(app: FastifyInstance, name: string, token?: string): Promise<Sample[]> {
  const res = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  const samples: Sample[] = [];
  for (const line of res.body.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = pair[2] as string;
    samples.push({ labels, value: Number(match[3]) });
  }
  return samples;
}
