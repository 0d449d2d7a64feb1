import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpoints } from './endpoints';
import { routes } from './routes';

const here = dirname(fileURLToPath(import.meta.url));

/** The contract modules `entry` loads at run time (type-only imports are erased and left out). */
function runtimeGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const source = readFileSync(join(here, entry), 'utf8');
  for (const match of source.matchAll(/^(?:import|export)(?! type)[^;]*?from '([^']+)';/gms)) {
    const target = match[1] as string;
    if (target.startsWith('.')) runtimeGraph(`${join(dirname(entry), target)}.ts`, seen);
    else seen.add(target);
  }
  return seen;
}

describe('endpoints', () => {
  it('names every route once, and every route lives where its endpoint says', () => {
    expect(Object.keys(endpoints).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, route] of Object.entries(routes)) {
      const endpoint = endpoints[name as keyof typeof endpoints];
      expect({ method: route.method, path: route.path }, name).toEqual({
        method: endpoint.method,
        path: endpoint.path,
      });
    }
  });

  it('keeps the browser entries free of zod: @kamai/contract/endpoints, /constants and /route-roles', () => {
    for (const entry of ['endpoints.ts', 'public-constants.ts', 'route-roles.ts']) {
      const graph = runtimeGraph(entry);
      expect(
        [...graph].filter((name) => !name.endsWith('.ts')),
        entry,
      ).toEqual([]);
      expect(graph.size, entry).toBeGreaterThan(1);
    }
  });
});
