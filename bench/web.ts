import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
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

function sizeRows(firstRoute: string[], how: string): Row[] {
  const js = firstRoute.filter((p) => p.endsWith('.js'));
  const jsKb = js.reduce((sum, p) => sum + gzipKb(join(DIST, p)), 0);
  const css = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.css'));
  const cssKb = css.reduce((sum, f) => sum + rawKb(join(DIST, 'assets', f)), 0);
  const cssGzipKb = css.reduce((sum, f) => sum + gzipKb(join(DIST, 'assets', f)), 0);
  return [
    {
      name: '7 web: first-route JavaScript (Home, logged in), gzip',
      figure: jsKb,
      unit: 'KB',
      target: '≤ 120 KB',
      pass: jsKb <= 120,
      note: `${js.length} files ${how}`,
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

async function audit(url: string, port: number): Promise<Score> {
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
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Lighthouse targets of issue 7, one printed line each. */
const METRICS: {
  what: string;
  pick: (s: Score) => number;
  unit: string;
  target: string;
  ok: (v: number) => boolean;
}[] = [
  { what: 'performance', pick: (s) => s.performance, unit: '', target: '≥ 95', ok: (v) => v >= 95 },
  { what: 'LCP', pick: (s) => s.lcp, unit: 's', target: '≤ 2.0 s', ok: (v) => v <= 2 },
  { what: 'TBT', pick: (s) => s.tbt, unit: 'ms', target: '≤ 150 ms', ok: (v) => v <= 150 },
  { what: 'CLS', pick: (s) => s.cls, unit: '', target: '≤ 0.05', ok: (v) => v <= 0.05 },
  { what: 'accessibility', pick: (s) => s.accessibility, unit: '', target: '≥ 95', ok: (v) => v >= 95 },
];

function scoreRows(label: string, runs: Score[], base: Score): Row[] {
  const failures = [...new Set(runs.flatMap((run) => run.a11yFailures))].join(', ');
  return METRICS.map((metric) => {
    const figure = median(runs.map(metric.pick));
    const anchor = metric.pick(base);
    return {
      name: `7 web ${label}: ${metric.what}`,
      figure,
      unit: metric.unit,
      baseline: { label: 'static page', value: anchor, unit: metric.unit },
      ratio: anchor ? figure / anchor : undefined,
      target: metric.target,
      pass: metric.ok(figure),
      note: `median of ${runs.length}, Lighthouse mobile, simulated throttling${metric.what === 'accessibility' && failures ? `; failing: ${failures}` : ''}`,
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
      if (ctx.smoke) return rows;
      const anchor = await staticPage();
      try {
        progress('Lighthouse: static page (baseline)');
        const base = await audit(anchor.url, chrome.port);
        for (const page of PAGES) {
          const runs: Score[] = [];
          for (let i = 0; i < ctx.rounds; i += 1) {
            progress(`Lighthouse: ${page.label} run ${i + 1} of ${ctx.rounds}`);
            const score = await audit(`${server.url}${page.path}`, chrome.port);
            if (!score.loggedIn) throw new Error(`${page.label} made no successful user API call: not logged in`);
            runs.push(score);
          }
          rows.push(...scoreRows(page.label, runs, base));
        }
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
