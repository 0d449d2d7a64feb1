import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutputChunk, RolldownOutput } from 'rolldown';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * The console's production build (in memory, nothing written): recharts is in the trend charts'
 * chunk alone, and no chunk loads that one eagerly, so only the dashboard fetches it, once shown.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const sourceOf = (chunk: OutputChunk) => chunk.facadeModuleId && relative(root, chunk.facadeModuleId);
const isRecharts = (id: string) => /[\\/]node_modules[\\/]recharts[\\/]/.test(id);

describe('the console build', () => {
  it('keeps recharts in the lazily loaded trend charts chunk only', { timeout: 120_000 }, async () => {
    const output = (await build({
      root,
      configFile: `${root}vite.config.ts`,
      logLevel: 'silent',
      build: { write: false },
    })) as RolldownOutput;
    const chunks = output.output.filter((item): item is OutputChunk => item.type === 'chunk');
    const withRecharts = chunks.filter((chunk) => chunk.moduleIds.some(isRecharts));
    expect(withRecharts.map((chunk) => sourceOf(chunk))).toEqual([
      'src/features/dashboard/components/trend-charts.tsx',
    ]);
    const charts = withRecharts[0] as OutputChunk;
    // Imported dynamically (the dashboard's React.lazy), never statically by another chunk.
    expect(chunks.filter((chunk) => chunk.imports.includes(charts.fileName))).toEqual([]);
    const lazily = chunks.filter((chunk) => chunk.dynamicImports.includes(charts.fileName));
    expect(lazily.map((chunk) => sourceOf(chunk))).toEqual(['src/features/dashboard/pages/dashboard-page.tsx']);
  });
});
