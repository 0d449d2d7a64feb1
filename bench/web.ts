import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { API, BENCH_ADMIN_ENV, registerUsers } from './lib/api';
import type { Benchmark } from './lib/bench';
import { freePort, root, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DIST = join(root, 'web/dist');
/** web/src/lib/api.ts keeps the session token under this key (createTokenStore of client/). */
const TOKEN_KEY = 'kamai.token';
const PAGES = [
  { label: 'Home', path: '/index/home' },
  { label: 'Profile', path: '/index/user' },
] as const;

const gzipKb = (file: string) => gzipSync(readFileSync(file)).length / 1024;
const rawKb = (file: string) => readFileSync(file).length / 1024;

/** The assets Chromium fetched while loading `path` logged in, until the network went quiet. */
async function firstRouteAssets(cdpPort: number, base: string, token: string, path: string): Promise<string[]> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.evaluate(`localStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)})`);
    const seen = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === base && /\.(js|css)$/.test(url.pathname)) seen.add(url.pathname);
    });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    await page.close();
    return [...seen];
  } finally {
    // Disconnects only: the launched Chromium keeps its profile (and the token) for Lighthouse.
    await browser.close();
  }
}

/** Without Chromium: the entry, its modulepreloads and stylesheets named by index.html. */
function assetsOfIndexHtml(): string[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
}

/** The machine's 1-minute load average, printed beside each run (the two cores are shared). */
const load = () => loadavg()[0]?.toFixed(1) ?? '?';

function sizeRows(firstRoute: string[], how: string): Row[] {
  for (const p of [...firstRoute].sort()) {
    progress(
      `first route: ${p} ${gzipKb(join(DIST, p)).toFixed(1)} KB gzip, ${rawKb(join(DIST, p)).toFixed(1)} KB raw`,
    );
  }
  const js = firstRoute.filter((p) => p.endsWith('.js'));
  const jsKb = js.reduce((sum, p) => sum + gzipKb(join(DIST, p)), 0);
  const firstCss = firstRoute.filter((p) => p.endsWith('.css'));
  const firstCssKb = firstCss.reduce((sum, p) => sum + rawKb(join(DIST, p)), 0);
  const css = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.css'));
  const cssKb = css.reduce((sum, f) => sum + rawKb(join(DIST, 'assets', f)), 0);
  const cssGzipKb = css.reduce((sum, f) => sum + gzipKb(join(DIST, 'assets', f)), 0);
  return [
    {
      name: '7 web: first-route JavaScript (Home, logged in), gzip',
      figure: jsKb,
      unit: 'KB',
      // With React 19 (docs/decisions/web-renderer.md).
      target: '≤ 120 KB',
      pass: jsKb <= 120,
      note: `${js.length} files ${how}`,
    },
    {
      name: '7 web: first-route CSS (Home, logged in), minified',
      figure: firstCssKb,
      unit: 'KB',
      target: 'informative',
      pass: undefined,
      note: `${firstCss.length} files, ${firstCss.reduce((sum, p) => sum + gzipKb(join(DIST, p)), 0).toFixed(1)} KB gzip`,
    },
    {
      name: '7 web: total CSS of web/dist',
      figure: cssKb,
      unit: 'KB',
      target: '≤ 30 KB',
      pass: cssKb <= 30,
      note: `${css.length} files, ${cssGzipKb.toFixed(1)} KB gzip`,
    },
  ];
}

interface Score {
  /** Whether the page's own calls to user routes were answered 200, i.e. it ran logged in. */
  loggedIn: boolean;
  /** Accessibility audits that did not pass, by id. */
  a11yFailures: string[];
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  cls: number;
}

/** From Lighthouse's network-requests audit: at least one user API call, and all of them 200. */
function userCallsOk(details: unknown): boolean {
  const items = (details as { items?: { url?: string; statusCode?: number }[] } | undefined)?.items ?? [];
  const calls = items.filter((item) => item.url?.includes(`${API}/user/`));
  return calls.length > 0 && calls.every((item) => item.statusCode === 200);
}

/** What this benchmark reads of Lighthouse's result (its own types come with the package, not installed by default). */
interface LighthouseResult {
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
    audits: Record<string, { score: number | null; numericValue?: number; details?: unknown } | undefined>;
  };
}
type Lighthouse = (url: string, flags: Record<string, unknown>) => Promise<LighthouseResult | undefined>;

/** Lighthouse lives in bench/lighthouse (not a workspace, so the app's npm ci skips its ~60 MB); installed on first use. */
const LIGHTHOUSE_DIR = join(root, 'bench/lighthouse');

async function loadLighthouse(): Promise<Lighthouse> {
  const entry = join(LIGHTHOUSE_DIR, 'node_modules/lighthouse/core/index.js');
  if (!existsSync(entry)) {
    progress('installing Lighthouse: npm ci --prefix bench/lighthouse');
    execFileSync('npm', ['ci', '--prefix', LIGHTHOUSE_DIR, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  }
  return ((await import(pathToFileURL(entry).href)) as { default: Lighthouse }).default;
}

async function audit(lighthouse: Lighthouse, url: string, port: number): Promise<Score> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    // Keeps the token in localStorage: the pages are measured logged in.
    disableStorageReset: true,
  });
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const a11yFailures = (categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => {
      const items = (audits[ref.id]?.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items;
      const snippets = (items ?? []).map((item) => item.node?.snippet).filter(Boolean);
      return snippets.length ? `${ref.id} ${snippets.slice(0, 2).join(' ')}` : ref.id;
    });
  return {
    loggedIn: userCallsOk(audits['network-requests']?.details),
    a11yFailures,
    performance: (categories.performance?.score ?? Number.NaN) * 100,
    accessibility: (categories.accessibility?.score ?? Number.NaN) * 100,
    lcp: numeric('largest-contentful-paint') / 1000,
    tbt: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
  };
}

/** The anchor of the Lighthouse figures: a static page with one heading, served by node:http. */
async function staticPage(): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="baseline"><title>Hello</title></head><body><h1>Hello</h1><p>A static page.</p></body></html>',
    );
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        // Chromium keeps its connection open; close() alone would wait for it.
        server.closeAllConnections();
      }),
  };
}

/** Lighthouse targets, one printed line each; `base` is the static page's median. */
const METRICS: {
  what: string;
  pick: (s: Score) => number;
  unit: string;
  target: string;
  ok: (v: number, base: number) => boolean;
}[] = [
  { what: 'performance', pick: (s) => s.performance, unit: '', target: '100', ok: (v) => v >= 99.5 },
  {
    what: 'LCP',
    pick: (s) => s.lcp,
    unit: 's',
    target: '≤ static + 0.2 s and ≤ 1.0 s',
    ok: (v, base) => v <= base + 0.2 && v <= 1,
  },
  { what: 'TBT', pick: (s) => s.tbt, unit: 'ms', target: '≤ 150 ms', ok: (v) => v <= 150 },
  { what: 'CLS', pick: (s) => s.cls, unit: '', target: '≤ 0.05', ok: (v) => v <= 0.05 },
  { what: 'accessibility', pick: (s) => s.accessibility, unit: '', target: '≥ 95', ok: (v) => v >= 95 },
];

function scoreRows(label: string, runs: Score[], base: Score[], loads: string): Row[] {
  const failures = [...new Set(runs.flatMap((run) => run.a11yFailures))].join(', ');
  return METRICS.map((metric) => {
    const figure = median(runs.map(metric.pick));
    const anchor = median(base.map(metric.pick));
    return {
      name: `7 web ${label}: ${metric.what}`,
      figure,
      unit: metric.unit,
      baseline: { label: 'static page', value: anchor, unit: metric.unit },
      ratio: anchor ? figure / anchor : undefined,
      target: metric.target,
      pass: metric.ok(figure, anchor),
      note: `median of ${runs.length}, load ${loads}, Lighthouse mobile, simulated throttling${metric.what === 'accessibility' && failures ? `; failing: ${failures}` : ''}`,
    };
  });
}

/**
 * 7. Web: what the first route makes the phone download (gzip JS, all CSS), and Lighthouse on Home
 * and Profile logged in, served by our server from web/dist (`npm run build`).
 */
export const web: Benchmark = {
  id: 7,
  title: 'web',
  async run(ctx) {
    if (!existsSync(join(DIST, 'index.html'))) throw new Error('web/dist is missing: run npm run build first');
    if (!existsSync(CHROME)) {
      progress(`${CHROME} is missing: sizes from index.html only, no Lighthouse`);
      return sizeRows(assetsOfIndexHtml(), 'named by index.html (no Chromium)');
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const server = await startServer({ DATA_DIR: dataDir, ...BENCH_ADMIN_ENV });
    const chrome = await chromeLauncher.launch({
      chromePath: CHROME,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const [user] = await registerUsers(server.url, 1);
      if (!user) throw new Error('no user registered');
      const assets = await firstRouteAssets(chrome.port, server.url, user.token, PAGES[0].path);
      const rows = sizeRows(assets, 'fetched by Chromium loading Home');
      const profile = (await firstRouteAssets(chrome.port, server.url, user.token, PAGES[1].path)).filter((p) =>
        p.endsWith('.js'),
      );
      for (const p of [...profile].sort()) progress(`Profile: ${p} ${gzipKb(join(DIST, p)).toFixed(1)} KB gzip`);
      const profileKb = profile.reduce((sum, p) => sum + gzipKb(join(DIST, p)), 0);
      rows.push({
        name: '7 web: JavaScript of Profile opened first (logged in), gzip',
        figure: profileKb,
        unit: 'KB',
        target: 'informative',
        pass: undefined,
        note: `${profile.length} files`,
      });
      if (ctx.smoke) return rows;
      const lighthouse = await loadLighthouse();
      const anchor = await staticPage();
      try {
        // Rounds alternate the static page and the app's pages (the order rotates), so a burst of load
        // from the machine's other work falls on both sides; each run prints the load average.
        const targets = [
          { label: 'static page', url: anchor.url },
          ...PAGES.map((p) => ({ label: p.label, url: `${server.url}${p.path}` })),
        ];
        const runs = new Map<string, Score[]>(targets.map((t) => [t.label, []]));
        const loads: string[] = [];
        for (let i = 0; i < ctx.rounds; i += 1) {
          const order = [...targets.slice(i % targets.length), ...targets.slice(0, i % targets.length)];
          for (const target of order) {
            const before = load();
            const score = await audit(lighthouse, target.url, chrome.port);
            const after = load();
            loads.push(before, after);
            progress(
              `Lighthouse round ${i + 1} of ${ctx.rounds}, ${target.label}: performance ${score.performance}, LCP ${score.lcp.toFixed(2)} s, TBT ${score.tbt.toFixed(0)} ms (load average ${before} → ${after})`,
            );
            if (target.label !== 'static page' && !score.loggedIn) {
              throw new Error(`${target.label} made no successful user API call: not logged in`);
            }
            runs.get(target.label)?.push(score);
          }
        }
        const base = runs.get('static page') ?? [];
        const range = `${Math.min(...loads.map(Number)).toFixed(1)}-${Math.max(...loads.map(Number)).toFixed(1)}`;
        for (const page of PAGES) rows.push(...scoreRows(page.label, runs.get(page.label) ?? [], base, range));
      } finally {
        await anchor.close();
      }
      return rows;
    } finally {
      chrome.kill();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
