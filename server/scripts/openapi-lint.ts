// npm run lint:openapi: builds the app (in-memory database, nothing listens), writes the document it serves
// at /docs/json to .tmp/openapi.json, runs Spectral with the OWASP API ruleset over it, and fails on any
// finding that tools/spectral/openapi-exceptions.json does not list with a reason
// (docs/decisions/openapi-and-spectral.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { loadConfig } from '../src/platform/config';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tool = join(root, 'tools/spectral');
const spectral = join(tool, 'node_modules/.bin/spectral');

interface Finding {
  code: string;
  path: string[];
  message: string;
  severity: number;
}
/**
 * One accepted rule, with its reason, narrowed by at most one of:
 * - `routes`: the operations it covers, `"POST /go_user/api/v1/common/user/login"`, each with why. For rules about
 *   a whole route (public routes without a session or 401): a route added later is not covered, so one that
 *   forgets its security or its 401 is flagged.
 * - `path`: a regular expression over the finding's path joined with " > " (e.g. ` > responses > `), for rules
 *   about a kind of place in every route (response bodies, inputs).
 * With neither, the rule is accepted everywhere (policies that hold for the whole API, such as CORS).
 */
interface Exception {
  rule: string;
  path?: string;
  routes?: Record<string, string>;
  reason: string;
}

const ROUTE_KEY = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH) \/\S*$/;

/** "POST /path" for a finding inside an operation (`paths > /path > post > ...`), else undefined. */
function routeOf(finding: Finding): string | undefined {
  const [root, path, method] = finding.path;
  if (root !== 'paths' || !path || !method) return undefined;
  const key = `${method.toUpperCase()} ${path}`;
  return ROUTE_KEY.test(key) ? key : undefined;
}

/** What is wrong with an entry of the exceptions file, if anything. */
function entryProblem(e: Exception): string | undefined {
  if (!e.rule || !e.reason || e.reason.trim().length < 10) return 'needs a rule and a reason';
  if (e.path !== undefined && e.routes !== undefined) return 'takes `path` or `routes`, not both';
  if (e.routes === undefined) return undefined;
  const routes = Object.entries(e.routes);
  if (routes.length === 0) return '`routes` is empty';
  for (const [route, why] of routes) {
    if (!ROUTE_KEY.test(route)) return `"${route}" is not "METHOD /path"`;
    if (typeof why !== 'string' || why.trim().length < 10) return `"${route}" needs its reason`;
  }
  return undefined;
}

export async function dumpDocument(): Promise<unknown> {
  const database = await openDatabase({ pglite: await PGlite.create(), migrate: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-openapi-'));
  const { app } = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    database,
    logger: false,
    webRoots: { web: join(dataDir, 'none'), admin: join(dataDir, 'none') },
  });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/docs/json' });
    if (res.statusCode !== 200) throw new Error(`/docs/json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    await database.close();
  }
}

function main(findings: Finding[], exceptions: Exception[]) {
  const bad = exceptions.flatMap((e) => {
    const problem = entryProblem(e);
    return problem ? [`${problem}: ${JSON.stringify(e)}`] : [];
  });
  if (bad.length > 0) {
    console.error(`openapi-exceptions.json: every entry needs a rule and a reason:\n${bad.join('\n')}`);
    return 1;
  }
  // What each entry accepted: the entry itself, and for `routes` entries each route.
  const used = new Set<string>();
  const covers = (e: Exception, finding: Finding) => {
    if (e.rule !== finding.code) return false;
    if (e.routes) {
      const route = routeOf(finding);
      return route !== undefined && Object.hasOwn(e.routes, route);
    }
    return !e.path || new RegExp(e.path).test(finding.path.join(' > '));
  };
  const open = findings.filter((finding) => {
    const hit = exceptions.find((e) => covers(e, finding));
    if (hit) used.add(hit.routes ? `${hit.rule} ${routeOf(finding)}` : `${hit.rule} ${hit.path ?? ''}`);
    return !hit;
  });
  const listed = exceptions.flatMap((e) =>
    e.routes ? Object.keys(e.routes).map((route) => `${e.rule} ${route}`) : [`${e.rule} ${e.path ?? ''}`],
  );
  for (const entry of listed.filter((x) => !used.has(x))) console.warn(`unused exception (remove it): ${entry}`);
  const byRule = new Map<string, number>();
  for (const f of findings) byRule.set(f.code, (byRule.get(f.code) ?? 0) + 1);
  console.log(
    `spectral: ${findings.length} findings, ${findings.length - open.length} accepted by the exceptions file`,
  );
  for (const [rule, count] of [...byRule].sort()) console.log(`  ${String(count).padStart(4)} ${rule}`);
  if (open.length === 0) return 0;
  console.error(`\n${open.length} findings not in tools/spectral/openapi-exceptions.json:`);
  for (const f of open.slice(0, 200)) console.error(`  ${f.code}  ${f.path.join(' > ')}\n      ${f.message}`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!existsSync(spectral)) {
    console.error('Spectral is not installed: npm ci --prefix tools/spectral');
    process.exit(2);
  }
  const out = join(root, '.tmp/openapi.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(await dumpDocument(), null, 2)}\n`);
  const run = spawnSync(
    spectral,
    ['lint', out, '--ruleset', join(tool, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'error'],
    { cwd: tool, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (run.error || !run.stdout.trim().startsWith('[')) {
    console.error(`spectral did not run: ${run.error?.message ?? ''}\n${run.stderr}\n${run.stdout.slice(0, 2000)}`);
    process.exit(2);
  }
  const findings = JSON.parse(run.stdout) as Finding[];
  const exceptions = JSON.parse(readFileSync(join(tool, 'openapi-exceptions.json'), 'utf8')) as Exception[];
  process.exit(main(findings, exceptions));
}
