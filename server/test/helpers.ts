import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../src/app';
import { type Database, openDatabase } from '../src/db/client';
import { otpOutbox, users } from '../src/db/schema';
import { callbackUrl } from '../src/features/payouts';
import { createUsersService } from '../src/features/users';
import { checkLedger } from '../src/features/wallet';
import { hashToken } from '../src/platform/auth';
import { loadConfig } from '../src/platform/config';
import { findLiveSession } from '../src/platform/sessions.queries';
import { createWorker } from '../src/worker';
import { scrapeMetric } from './metrics-text';

/** A database of this test file's own, cloned from the run's migrated template. */
export async function testDatabase(): Promise<Database> {
  const template = inject('templateDatabase');
  const url = process.env.DATABASE_URL;
  if (template && url) {
    const name = `kamai_t_${process.pid}_${Date.now()}_${randomInt(1e6)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    // Concurrency tests queue 200 transactions on one locked wallet behind a pool of 20: on a busy
    // machine a queued one can wait past the production 5 s checkout limit, which would fail a
    // correctness test for the machine's speed. Tests check what happens, not how fast.
    const database = await openDatabase({ databaseUrl: target.toString(), migrate: false, connectTimeoutMs: 120_000 });
    return {
      ...database,
      async close() {
        await database.close();
        // pool.end() resolves before its sockets are closed; a forced drop would then kill backends
        // that are still closing, and their FATAL messages surface as unhandled errors.
        for (let i = 0; i < 100; i++) {
          const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
            name,
          ]);
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteDump'));
  const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return openDatabase({ pglite: client, migrate: false });
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/** The real app on a real database, with a clock the test can move and the log lines it wrote. */
export async function createTestContext(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'pendingWithdrawals' | 'smsSender' | 'webRoots'> = {},
) {
  const database = await testDatabase();
  // Code refusals answer at once here (1 s in production); security.test.ts checks the delay itself.
  const config = loadConfig({ LOG_LEVEL: 'info', AUTH_CODE_FAILURE_DELAY_MS: '0', ...env });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const { app } = await buildApp({
    config,
    database,
    logger: { level: 'info', stream },
    now,
    ...deps,
  });
  await app.ready();
  const { generated: admin } = await createUsersService({ db: database.db, now }).bootstrapStaff([]);
  if (!admin) throw new Error('test database already had an admin');
  // The background work a test drives by hand (`runDue`, `reconcile`): built here the way the app
  // builds its own, over the same database, clock and config; the app hands out nothing for tests.
  const worker = await createWorker({
    db: database.db,
    config,
    now,
    log: app.log,
    notifyUrl: () => callbackUrl(config, () => app.server.address()),
  });

  let seq = 0;
  let adminToken: string | undefined;
  let coAdmin: { id: number; token: string; username: string; password: string; inviteCode: string } | undefined;
  const ctx = {
    app,
    /** This test's own job runner and payouts service (see above). */
    worker,
    database,
    db: database.db,
    logs,
    admin,
    now,
    /** The ledger's invariants (wallet's checkLedger). */
    checkLedger() {
      return checkLedger(database.db);
    },
    /** The live session of a bearer token, if any. */
    liveSession(token: string) {
      return findLiveSession(database.db, hashToken(token), now());
    },
    /** The samples of one metric, scraped from /metrics over loopback. */
    metric(name: string) {
      return scrapeMetric(app, name);
    },
    advance(ms: number) {
      offsetMs += ms;
    },
    /** A phone number no other test uses: 9 followed by 9 digits. */
    uniquePhone() {
      seq += 1;
      return `9${String(randomInt(1e4)).padStart(4, '0')}${String(seq % 1e5).padStart(5, '0')}`;
    },
    async lastCode(target: string) {
      const [row] = await database.db
        .select({ code: otpOutbox.code })
        .from(otpOutbox)
        .where(eq(otpOutbox.target, target))
        .orderBy(desc(otpOutbox.id))
        .limit(1);
      if (!row) throw new Error(`no code sent to ${target}`);
      return row.code;
    },
    async post(url: string, body: unknown, options: RequestOptions & { ip?: string } = {}) {
      const res = await app.inject({
        method: 'POST',
        url,
        payload: body as Record<string, unknown>,
        headers: headers(options),
        remoteAddress: options.ip,
      });
      return { status: res.statusCode, body: res.json() };
    },
    /** A GET whose answer may not be JSON (the payout callback answers plain text). */
    async getText(url: string, options: RequestOptions = {}) {
      const res = await app.inject({ method: 'GET', url, headers: headers(options) });
      return { status: res.statusCode, text: res.body, contentType: String(res.headers['content-type'] ?? '') };
    },
    async get(url: string, options: RequestOptions = {}) {
      const res = await app.inject({ method: 'GET', url, headers: headers(options) });
      return { status: res.statusCode, body: res.json() };
    },
    /** Registers through the API: code, then register. Returns the username as stored and the token. */
    async registerUser(input: { username?: string; password?: string; inviteCode?: string } = {}) {
      const typed = input.username ?? ctx.uniquePhone();
      const password = input.password ?? 'secret123';
      const sent = await ctx.post('/go_user/api/v1/common/otp/send', { target: typed, type: 1 });
      if (sent.status !== 200) throw new Error(`otp/send failed: ${JSON.stringify(sent.body)}`);
      const username = typed.includes('@') ? typed.toLowerCase() : `91${typed.slice(-10)}`;
      const res = await ctx.post('/go_user/api/v1/common/user/register', {
        username: typed,
        password,
        password2: password,
        verifyCode: await ctx.lastCode(username),
        inviteCode: input.inviteCode ?? admin.inviteCode,
      });
      if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
      return { username, password, token: res.body.data.token as string };
    },
    /** The bootstrap admin's token (logged in once per test file). */
    async adminToken() {
      if (!adminToken) {
        const res = await ctx.post('/go_user/api/v1/common/user/login', {
          username: admin.username,
          password: admin.password,
        });
        if (res.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(res.body)}`);
        adminToken = res.body.data.token as string;
      }
      return adminToken;
    },
    /** Registers a user (with the admin's invite code unless given) and returns its id and invite code too. */
    async newUser(input: { username?: string; inviteCode?: string } = {}) {
      const registered = await ctx.registerUser(input);
      const detail = await ctx.get('/go_user/api/v1/user/user/detail', { token: registered.token });
      return {
        ...registered,
        id: detail.body.data.id as number,
        inviteCode: detail.body.data.inviteCode as string,
      };
    },
    /**
     * A second admin made the way the deployment makes its first staff (written to the database, not
     * through a proposal), once per test file: the one who applies `control` proposals.
     */
    async coAdmin() {
      if (!coAdmin) {
        const user = await ctx.newUser();
        await database.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
        coAdmin = user;
      }
      return coAdmin;
    },
    /**
     * A dual-controlled change (docs/decisions/dual-control.md) made whole: posts it; when it was
     * proposed, a second admin (the co-admin, or the bootstrap admin when the co-admin proposed)
     * applies it, and the answer is the route's usual data as it reads now. Answers the first
     * refusal, if any.
     */
    async control(url: string, body: unknown, options: RequestOptions = {}) {
      const token = options.token ?? (await ctx.adminToken());
      const first = await ctx.post(url, body, { ...options, token });
      const change = first.body?.data?.change;
      if (first.status !== 200 || !change || change.state !== 'pending') return first;
      const second = await ctx.coAdmin();
      const applier = token === second.token ? await ctx.adminToken() : second.token;
      const applied = await ctx.post('/go_user/api/v1/admin/control/apply', { id: change.id }, { token: applier });
      if (applied.status !== 200) return applied;
      const userId = (body as { userId?: number }).userId;
      const read = url.endsWith('/set')
        ? await ctx.get(url.replace(/\/set$/, '/get'), { token })
        : await ctx.get(`/go_user/api/v1/admin/user/detail?id=${userId}`, { token });
      const data = url.endsWith('/set') ? read.body.data : read.body.data.user;
      return { status: 200, body: { ...first.body, data: { ...data, change: null } } };
    },
    /** A new user given a staff role by the bootstrap admin (a second reviewer or admin for four-eyes). */
    async staff(role: 'reviewer' | 'admin') {
      const user = await ctx.newUser();
      const res = await ctx.control('/go_user/api/v1/admin/user/role', { userId: user.id, role });
      if (res.status !== 200) throw new Error(`user/role failed: ${JSON.stringify(res.body)}`);
      return user;
    },
    async balanceOf(token: string) {
      return (await ctx.get('/go_user/api/v1/user/user/detail', { token })).body.data.balance as string;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return ctx;
}

interface RequestOptions {
  token?: string;
  lang?: string;
  headers?: Record<string, string>;
}

function headers(options: RequestOptions) {
  const result: Record<string, string> = { ...options.headers };
  if (options.token) result.authorization = `Bearer ${options.token}`;
  if (options.lang) result['accept-language'] = options.lang;
  return result;
}
