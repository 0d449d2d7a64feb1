import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { API, BENCH_ADMIN, BENCH_ADMIN_ENV, call, login } from './lib/api';
import type { Benchmark } from './lib/bench';
import { fundedUsers } from './lib/money';
import { freePort, root, startServer } from './lib/processes';
import { median, progress, type Row } from './lib/report';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DIST = join(root, 'web/dist');
/** web/src/lib/api.ts keeps the session token under this key (createTokenStore of client/). */
const TOKEN_KEY = 'kamai.token';
/** The console's session (admin/src/lib/api.ts), kept apart from the app's. */
const ADMIN_TOKEN_KEY = 'kamai.admin.token';
const PAGES = [
  { label: 'Home', path: '/index/home' },
  { label: 'Profile', path: '/index/user' },
] as const;

/** The console's pages: its login (no session) and the withdrawals queue (a staff session). */
const CONSOLE_LOGIN = '/admin/';
const CONSOLE_QUEUE = '/admin/#/withdrawals';
const ADMIN_DIST = join(root, 'admin/dist');
const consoleFile = (path: string) => join(ADMIN_DIST, path.replace(/^\/admin\//, ''));

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

/** Lighthouse's mobile screen (its default `screenEmulation`): the console's figures are for a phone. */
const PHONE = { width: 412, height: 823 };

/**
 * The console's JavaScript and CSS Chromium fetched loading `path` on a phone-sized page (as Lighthouse
 * sees it: under 768 px the lists are cards, without antd's Table), until the network went quiet.
 */
async function fetchedAssets(cdpPort: number, base: string, path: string, ready: string): Promise<string[]> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.setViewportSize(PHONE);
    const seen = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === base && /\.(js|css)$/.test(url.pathname)) seen.add(url.pathname);
    });
    await page.goto(`${base}${path}`);
    // On a loaded machine the network can fall quiet between two lazy chunks: the page's own content
    // (the login form, the queue's first request) says it has rendered, then the network settles.
    await page.waitForSelector(ready, { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await page.close();
    return [...seen];
  } finally {
    await browser.close();
  }
}

/**
 * Sets (a string) or removes (null) localStorage entries of `base`'s origin in the launched Chromium's
 * profile, from a JSON answer of the API so that neither app's code runs (nor registers its worker).
 */
async function setStorage(cdpPort: number, base: string, entries: Record<string, string | null>): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${cdpPort}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(`${base}/obj/test/t1`);
    const steps = Object.entries(entries).map(([key, value]) =>
      value === null
        ? `localStorage.removeItem(${JSON.stringify(key)})`
        : `localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(value)})`,
    );
    await page.evaluate(steps.join(';'));
    await page.close();
  } finally {
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

function sizeRows(firstRoute: string[], how: string, listFiles: boolean): Row[] {
  for (const p of listFiles ? [...firstRoute].sort() : []) {
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
  /** The page's own API calls: `${API}/…` path and status, from Lighthouse's network-requests audit. */
  calls: { path: string; status: number }[];
  /** Accessibility audits that did not pass, by id. */
  a11yFailures: string[];
  performance: number;
  accessibility: number;
  lcp: number;
  tbt: number;
  cls: number;
}

function apiCalls(details: unknown): Score['calls'] {
  const items = (details as { items?: { url?: string; statusCode?: number }[] } | undefined)?.items ?? [];
  return items
    .filter((item) => item.url?.includes(`${API}/`))
    .map((item) => ({ path: new URL(item.url ?? '').pathname, status: item.statusCode ?? 0 }));
}

/** At least one call under each prefix, and every call under them answered 200: the page ran logged in. */
const answered = (calls: Score['calls'], prefixes: string[]) =>
  prefixes.every((prefix) => {
    const under = calls.filter((c) => c.path.startsWith(`${API}/${prefix}`));
    return under.length > 0 && under.every((c) => c.status === 200);
  });

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
    calls: apiCalls(audits['network-requests']?.details),
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

interface Metric {
  what: string;
  pick: (s: Score) => number;
  unit: string;
  target: string;
  ok?: (v: number, base: number) => boolean;
}

const informative = (what: string, pick: (s: Score) => number, unit: string): Metric => ({
  what,
  pick,
  unit,
  target: 'informative',
});

/** The app's pages (Home, Profile): performance and LCP against the static page, as the targets name them. */
const APP_METRICS: Metric[] = [
  { what: 'performance', pick: (s) => s.performance, unit: '', target: '≥ 95', ok: (v) => v >= 95 },
  { what: 'LCP', pick: (s) => s.lcp, unit: 's', target: '≤ static + 0.3 s', ok: (v, base) => v <= base + 0.3 },
  { what: 'TBT', pick: (s) => s.tbt, unit: 'ms', target: '≤ 150 ms', ok: (v) => v <= 150 },
  { what: 'CLS', pick: (s) => s.cls, unit: '', target: '≤ 0.05', ok: (v) => v <= 0.05 },
  { what: 'accessibility', pick: (s) => s.accessibility, unit: '', target: '≥ 95', ok: (v) => v >= 95 },
];

/** The console's login and withdrawals queue: a desktop tool, held to performance ≥ 90 on a phone. */
const CONSOLE_METRICS: Metric[] = [
  { what: 'performance', pick: (s) => s.performance, unit: '', target: '≥ 90', ok: (v) => v >= 90 },
  informative('LCP', (s) => s.lcp, 's'),
  informative('TBT', (s) => s.tbt, 'ms'),
  informative('CLS', (s) => s.cls, ''),
  informative('accessibility', (s) => s.accessibility, ''),
];

function scoreRows(label: string, metrics: Metric[], runs: Score[], base: Score[], loads: string): Row[] {
  const failures = [...new Set(runs.flatMap((run) => run.a11yFailures))].join(', ');
  return metrics.map((metric) => {
    const figure = median(runs.map(metric.pick));
    const anchor = median(base.map(metric.pick));
    return {
      name: `7 ${label}: ${metric.what}`,
      figure,
      unit: metric.unit,
      baseline: { label: 'static page', value: anchor, unit: metric.unit },
      ratio: anchor ? figure / anchor : undefined,
      target: metric.target,
      pass: metric.ok?.(figure, anchor),
      note: `median of ${runs.length}, load ${loads}, Lighthouse mobile, simulated throttling${metric.what === 'accessibility' && failures ? `; failing: ${failures}` : ''}`,
    };
  });
}

/** One page Lighthouse opens: what localStorage holds first, and which API calls prove how it ran. */
interface Target {
  label: string;
  url: string;
  metrics: Metric[];
  storage: Record<string, string | null>;
  /** API path prefixes (after `${API}/`) that must all have answered 200; none for the login page. */
  calls: string[];
}

/** Seeds the queue as a reviewer finds it: four users, three pending withdrawals each (within the default limits). */
async function pendingWithdrawals(base: string, admin: string) {
  const users = await fundedUsers(base, admin, 4);
  for (const user of users) {
    for (const amount of ['120', '250', '175.50']) {
      await call(base, 'POST', `${API}/user/withdraw/add`, { amount }, user.token);
    }
  }
  return users;
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
      return sizeRows(assetsOfIndexHtml(), 'named by index.html (no Chromium)', !ctx.smoke);
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-bench-'));
    const server = await startServer({ DATA_DIR: dataDir, ...BENCH_ADMIN_ENV });
    const chrome = await chromeLauncher.launch({
      chromePath: CHROME,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const admin = await login(server.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
      const [user] = await pendingWithdrawals(server.url, admin);
      if (!user) throw new Error('no user registered');
      const assets = await firstRouteAssets(chrome.port, server.url, user.token, PAGES[0].path);
      // Each file's weight is listed in a full run; the smoke (CI) prints the totals only.
      const listFiles = !ctx.smoke;
      const rows = sizeRows(assets, 'fetched by Chromium loading Home', listFiles);
      const profile = (await firstRouteAssets(chrome.port, server.url, user.token, PAGES[1].path)).filter((p) =>
        p.endsWith('.js'),
      );
      for (const p of listFiles ? [...profile].sort() : [])
        progress(`Profile: ${p} ${gzipKb(join(DIST, p)).toFixed(1)} KB gzip`);
      const profileKb = profile.reduce((sum, p) => sum + gzipKb(join(DIST, p)), 0);
      rows.push({
        name: '7 web: JavaScript of Profile opened first (logged in), gzip',
        figure: profileKb,
        unit: 'KB',
        target: 'informative',
        pass: undefined,
        note: `${profile.length} files`,
      });
      const consoleRoutes = [
        { label: 'login', path: CONSOLE_LOGIN, token: null, ready: 'form input[autocomplete="username"]' },
        { label: 'withdrawals queue (logged in)', path: CONSOLE_QUEUE, token: admin, ready: '.row-card' },
      ];
      for (const route of consoleRoutes) {
        await setStorage(chrome.port, server.url, { [ADMIN_TOKEN_KEY]: route.token });
        const js = (await fetchedAssets(chrome.port, server.url, route.path, route.ready)).filter((p) =>
          p.endsWith('.js'),
        );
        for (const p of listFiles ? [...js].sort() : []) {
          progress(`console ${route.label}: ${p} ${gzipKb(consoleFile(p)).toFixed(1)} KB gzip`);
        }
        rows.push({
          name: `7 console: JavaScript of the ${route.label}, gzip`,
          figure: js.reduce((sum, p) => sum + gzipKb(consoleFile(p)), 0),
          unit: 'KB',
          target: 'informative',
          pass: undefined,
          note: `${js.length} files, ${js.reduce((sum, p) => sum + rawKb(consoleFile(p)), 0).toFixed(1)} KB raw, at ${PHONE.width} × ${PHONE.height} px`,
        });
      }
      if (ctx.smoke) return rows;
      const lighthouse = await loadLighthouse();
      const anchor = await staticPage();
      try {
        // Rounds alternate the static page, the app's pages and the console's (the order rotates), so a
        // burst of load from the machine's other work falls on every side; each run prints the load average.
        const targets: Target[] = [
          { label: 'static page', url: anchor.url, metrics: [], storage: {}, calls: [] },
          ...PAGES.map((p) => ({
            label: `web ${p.label}`,
            url: `${server.url}${p.path}`,
            metrics: APP_METRICS,
            storage: { [TOKEN_KEY]: user.token },
            calls: ['user/'],
          })),
          {
            label: 'console login',
            url: `${server.url}${CONSOLE_LOGIN}`,
            metrics: CONSOLE_METRICS,
            storage: { [ADMIN_TOKEN_KEY]: null },
            calls: [],
          },
          {
            label: 'console withdrawals queue',
            url: `${server.url}${CONSOLE_QUEUE}`,
            metrics: CONSOLE_METRICS,
            storage: { [ADMIN_TOKEN_KEY]: admin },
            calls: ['user/', 'admin/withdraw/'],
          },
        ];
        const runs = new Map<string, Score[]>(targets.map((t) => [t.label, []]));
        const loads: string[] = [];
        for (let i = 0; i < ctx.rounds; i += 1) {
          const order = [...targets.slice(i % targets.length), ...targets.slice(0, i % targets.length)];
          for (const target of order) {
            if (Object.keys(target.storage).length) await setStorage(chrome.port, server.url, target.storage);
            const before = load();
            const score = await audit(lighthouse, target.url, chrome.port);
            const after = load();
            loads.push(before, after);
            progress(
              `Lighthouse round ${i + 1} of ${ctx.rounds}, ${target.label}: performance ${Math.round(score.performance)}, LCP ${score.lcp.toFixed(2)} s, TBT ${score.tbt.toFixed(0)} ms (load average ${before} → ${after})`,
            );
            if (target.calls.length && !answered(score.calls, target.calls)) {
              throw new Error(`${target.label}: no successful ${target.calls.join(' and ')} API calls, not logged in`);
            }
            if (target.label === 'console login' && score.calls.some((c) => c.path.startsWith(`${API}/admin/`))) {
              throw new Error('console login: the page called the admin API, so it was not the login page');
            }
            runs.get(target.label)?.push(score);
          }
        }
        const base = runs.get('static page') ?? [];
        const range = `${Math.min(...loads.map(Number)).toFixed(1)}-${Math.max(...loads.map(Number)).toFixed(1)}`;
        for (const target of targets.slice(1)) {
          rows.push(...scoreRows(target.label, target.metrics, runs.get(target.label) ?? [], base, range));
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
