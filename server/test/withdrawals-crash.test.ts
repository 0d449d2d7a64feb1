import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { mainDatabase, runMain } from './main-process';

/**
 * Kills the real server process (SIGKILL) in the middle of a burst of withdrawals and approvals, starts
 * it again on the same database and lets reconciliation finish the payouts. Runs on PGlite, or on the
 * PostgreSQL server when DATABASE_URL is set (in a database of its own).
 */
const API = '/go_user/api/v1';
const ADMIN = { username: 'crash-admin@kamai.test', password: 'secret123' };
const USERS = 5;
const PER_USER = 8;
const FUNDS = 2000;
const AMOUNT = 150;

interface Server {
  child: ChildProcess;
  url: string;
  lines: string[];
}

let store: Awaited<ReturnType<typeof mainDatabase>> | undefined;

beforeAll(async () => {
  store = await mainDatabase('crash');
});

afterAll(async () => {
  await store?.drop();
});

/** Starts `server/src/main.ts` on a free port; resolves once it logs "ready". */
async function start(): Promise<Server> {
  const run = await runMain({
    LOG_LEVEL: 'info',
    ...store?.env,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    INVITE_CODE_REQUIRED: 'false',
    SANDBOX_PAYOUT_DELAY_MS: '100',
    PAYOUT_RECONCILE_AFTER_SECONDS: '2',
    JOB_LEASE_SECONDS: '2',
  });
  if (!run.url) throw new Error(`server exited early:\n${run.lines.join('\n')}`);
  return { child: run.child, url: run.url, lines: run.lines };
}

function exited(child: ChildProcess) {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
  });
}

async function call(server: Server, method: 'GET' | 'POST', path: string, body?: unknown, headers = {}) {
  const res = await fetch(`${server.url}${API}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { key: string; data: Record<string, unknown> } };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(server: Server, username: string, password: string) {
  const res = await call(server, 'POST', '/common/user/login', { username, password });
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return String(res.body.data.token);
}

/** Registers a user through the API (the code read from the admin's outbox) with a UPI account and funds. */
async function setUpUser(server: Server, adminToken: string, i: number) {
  const phone = `9${String(randomInt(1e4)).padStart(4, '0')}${String(i).padStart(5, '0')}`;
  await call(server, 'POST', '/common/otp/send', { target: phone, type: 1 });
  const outbox = await call(server, 'GET', '/admin/otp/outbox?limit=100', undefined, bearer(adminToken));
  const items = outbox.body.data.items as { target: string; code: string }[];
  const code = items.find((item) => item.target === `91${phone}`)?.code;
  const reg = await call(server, 'POST', '/common/user/register', {
    username: phone,
    password: 'secret123',
    password2: 'secret123',
    verifyCode: code,
  });
  if (reg.status !== 200) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
  const token = String(reg.body.data.token);
  const me = await call(server, 'GET', '/user/user/detail', undefined, bearer(token));
  const id = Number(me.body.data.id);
  await call(
    server,
    'POST',
    '/user/wdaccount/bind',
    { accountNo: `crash${i}@okaxis`, accountName: 'Crash Test' },
    bearer(token),
  );
  const funded = await call(
    server,
    'POST',
    '/admin/revenue/add',
    { userId: id, amount: FUNDS, remark: 'crash test' },
    bearer(adminToken),
  );
  if (funded.status !== 200) throw new Error(`revenue/add failed: ${JSON.stringify(funded.body)}`);
  return { id, token };
}

interface Attempt {
  token: string;
  key: string;
  /** The withdrawal id of an acknowledged (HTTP 200) request. */
  acknowledged?: number;
}

describe('a server killed in the middle of withdrawals and approvals', () => {
  it('loses no acknowledged withdrawal, pays none twice and keeps the ledger whole', { timeout: 360_000 }, async () => {
    let server = await start();
    let adminToken = await login(server, ADMIN.username, ADMIN.password);
    const set = await call(
      server,
      'POST',
      '/admin/settings/set',
      { withdrawal: { dailyCount: 100 } },
      bearer(adminToken),
    );
    expect(set.status).toBe(200);
    const users = [];
    for (let i = 0; i < USERS; i++) users.push(await setUpUser(server, adminToken, i));

    // The burst: every user's withdrawals at once, each approved as soon as it is acknowledged.
    const attempts: Attempt[] = users.flatMap((u) =>
      Array.from({ length: PER_USER }, (_, n) => ({ token: u.token, key: `crash-${u.id}-${n}` })),
    );
    let acknowledged = 0;
    let killed = false;
    const victim = server;
    const burst = attempts.map(async (attempt) => {
      try {
        const res = await call(
          victim,
          'POST',
          '/user/withdraw/add',
          { amount: AMOUNT },
          {
            ...bearer(attempt.token),
            'idempotency-key': attempt.key,
          },
        );
        if (res.status !== 200) return;
        attempt.acknowledged = Number(res.body.data.id);
        acknowledged += 1;
        if (acknowledged >= attempts.length / 3 && !killed) {
          killed = true;
          victim.child.kill('SIGKILL');
        }
        await call(
          victim,
          'POST',
          '/admin/withdraw/review',
          { id: attempt.acknowledged, action: 'approve' },
          bearer(adminToken),
        );
      } catch {
        // The connection died with the server: this request was not acknowledged.
      }
    });
    await Promise.all(burst);
    if (!killed) victim.child.kill('SIGKILL');
    await exited(victim.child);
    expect(victim.child.signalCode).toBe('SIGKILL');
    const before = attempts.filter((a) => a.acknowledged !== undefined).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(attempts.length);

    server = await start();
    adminToken = await login(server, ADMIN.username, ADMIN.password);
    // A client retries what it never got an answer to, with the same Idempotency-Key.
    for (const attempt of attempts) {
      const res = await call(
        server,
        'POST',
        '/user/withdraw/add',
        { amount: AMOUNT },
        {
          ...bearer(attempt.token),
          'idempotency-key': attempt.key,
        },
      );
      if (attempt.acknowledged !== undefined && res.status === 200) {
        expect(Number(res.body.data.id)).toBe(attempt.acknowledged);
      }
    }

    // The operator approves what is still waiting (the kill may have come before any approval landed),
    // so the restarted server has payouts of its own to make beside those it must reconcile.
    const waiting = await call(
      server,
      'GET',
      '/admin/withdraw/list?state=pending&limit=100',
      undefined,
      bearer(adminToken),
    );
    for (const item of waiting.body.data.items as { id: number }[]) {
      const res = await call(
        server,
        'POST',
        '/admin/withdraw/review',
        { id: item.id, action: 'approve' },
        bearer(adminToken),
      );
      expect(res.status).toBe(200);
    }

    const unsettled = async () => {
      const states = await Promise.all(
        ['approved', 'processing'].map((state) =>
          call(server, 'GET', `/admin/withdraw/list?state=${state}&limit=100`, undefined, bearer(adminToken)),
        ),
      );
      return states.reduce((n, res) => n + (res.body.data.items as unknown[]).length, 0);
    };
    const deadline = Date.now() + 60_000;
    while ((await unsettled()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(
      await unsettled(),
      server.lines
        .filter((l) => !l.includes('"incoming request"') && !l.includes('request completed'))
        .slice(-40)
        .join('\n'),
    ).toBe(0);
    // With payout jobs and the sandbox's reports just done, SIGTERM ends it cleanly (1: the 15 s deadline fired).
    server.child.kill('SIGTERM');
    await exited(server.child);
    expect(server.child.exitCode).toBe(0);

    const database: Database = await openDatabase({
      databaseUrl: store?.databaseUrl,
      dataDir: store?.dataDir,
      migrate: false,
    });
    try {
      const rows = async (query: ReturnType<typeof sql>) =>
        ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
      const withdrawals = await rows(sql`
        select w.id, w.user_id, w.state, w.amount::text as amount,
          (select count(*) from postings p where p.idempotency_key = 'withdrawal:' || w.id || ':paid')::int as paid,
          (select count(*) from postings p where p.idempotency_key = 'withdrawal:' || w.id || ':refund')::int as refunds,
          (select count(*) from sandbox_payouts s where s.order_no = w.id::text)::int as payouts,
          (select count(*) from sandbox_payouts s where s.order_no = w.id::text and s.amount = w.amount)::int as matching
        from withdrawals w order by w.id`);
      const ids = new Set(withdrawals.map((w) => Number(w.id)));
      for (const attempt of attempts) {
        if (attempt.acknowledged !== undefined) expect(ids.has(attempt.acknowledged)).toBe(true);
      }
      expect(withdrawals.length).toBeLessThanOrEqual(attempts.length);
      for (const w of withdrawals) {
        const expected = {
          pending: { paid: 0, refunds: 0, payouts: 0 },
          paid: { paid: 1, refunds: 0, payouts: 1, matching: 1 },
          failed: { paid: 0, refunds: 1, payouts: 1 },
          rejected: { paid: 0, refunds: 1, payouts: 0 },
        }[String(w.state)];
        expect(expected, `withdrawal ${w.id} left ${w.state}`).toBeDefined();
        expect(w).toMatchObject(expected ?? {});
      }
      expect(withdrawals.some((w) => w.state === 'paid')).toBe(true);
      // Every rupee is where it should be: funds + the ₹5 sign-up reward = wallet + what left for the bank or waits.
      const balances = await rows(sql`
        select u.id, a.balance::text as wallet,
          coalesce((select sum(amount) from withdrawals w where w.user_id = u.id and w.state in ('pending', 'paid')), 0)::text as out
        from users u join accounts a on a.user_id = u.id and a.kind = 'wallet'
        where u.role = 'user'`);
      expect(balances).toHaveLength(USERS);
      for (const b of balances) expect(BigInt(String(b.wallet)) + BigInt(String(b.out))).toBe(BigInt(FUNDS + 5) * 100n);
      expect(await checkLedger(database.db)).toEqual({ ok: true, problems: [] });
    } finally {
      await database.close();
    }
  });
});
