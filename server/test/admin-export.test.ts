import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MOVEMENT_EXPORT_COLUMNS, USER_EXPORT_COLUMNS, WITHDRAWAL_EXPORT_COLUMNS } from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users, withdrawals } from '../src/db/schema';
import { movementBatch } from '../src/features/admin/export.queries';
import { EXPORT_BATCH_ROWS } from '../src/features/admin/export.service';
import { checkLedger } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';
import { payee, review, withdraw } from './payout-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ADMIN = '/go_user/api/v1/admin';
let ctx: TestContext;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.adminToken();
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** RFC 4180: records of fields, quotes doubled inside quoted fields, records ended by CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      record.push(field);
      field = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  return records;
}

async function download(path: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `${ADMIN}${path}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  return { status: res.statusCode, headers: res.headers, records: res.statusCode === 200 ? parseCsv(res.payload) : [] };
}

let address: Promise<string> | undefined;
/** The app on a real port (once per file), for tests that read the answer as it streams. */
const listening = () => {
  address ??= ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return address;
};

const byColumn = <C extends readonly string[]>(columns: C, record: string[]) =>
  Object.fromEntries(columns.map((c, i) => [c, record[i]])) as Record<C[number], string>;

describe('admin/export/users.csv', () => {
  it('downloads the users who joined in the range, defusing usernames a spreadsheet would run', async () => {
    const sneaky = await ctx.newUser({ username: `=cmd|calc${process.pid}@example.com` });
    const plain = await ctx.newUser({ inviteCode: sneaky.inviteCode });
    await ctx.db
      .update(users)
      .set({ createdAt: new Date('2025-03-04T20:00:00Z') })
      .where(eq(users.id, sneaky.id));

    const res = await download('/export/users.csv?from=2025-03-05&to=2025-03-05');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{8}T\d{6}Z\.csv"$/);
    expect(res.records).toEqual([
      [...USER_EXPORT_COLUMNS],
      [
        String(sneaky.id),
        `'${sneaky.username}`,
        sneaky.inviteCode,
        'user',
        'false',
        expect.any(String),
        '2025-03-04T20:00:00.000Z',
        '5.00',
        '0.00',
      ],
    ]);

    const today = await download(
      `/export/users.csv?from=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`,
    );
    expect(today.records.slice(1).map((r) => byColumn(USER_EXPORT_COLUMNS, r))).toContainEqual(
      expect.objectContaining({ id: String(plain.id), inviter_id: String(sneaky.id), balance: '5.00' }),
    );
  });

  it('answers a malformed range with the JSON envelope', async () => {
    const res = await ctx.get(`${ADMIN}/export/users.csv?from=soon`, { token: adminToken });
    expect(res).toMatchObject({
      status: 400,
      body: { key: 'validation_failed', data: { fields: { from: 'validation_failed' } } },
    });
  });
});

describe('admin/export/movements.csv', () => {
  it("lists every movement of users' accounts with its cause", async () => {
    const from = encodeURIComponent(new Date(Date.now() - 1000).toISOString());
    const top = await ctx.newUser();
    await ctx.newUser({ inviteCode: top.inviteCode });
    const res = await download(`/export/movements.csv?from=${from}`);
    expect(res.records[0]).toEqual([...MOVEMENT_EXPORT_COLUMNS]);
    const mine = res.records
      .slice(1)
      .map((r) => byColumn(MOVEMENT_EXPORT_COLUMNS, r))
      .filter((r) => r.user_id === String(top.id));
    expect(mine).toMatchObject([
      { username: top.username, account: 'wallet', type: 'task_reward', amount: '5.00', balance_after: '5.00' },
      // The rebate is owed on the invitee's reward and held as pending until that reward is final.
      { account: 'rebate_pending', type: 'rebate', amount: '0.50', balance_after: '0.50' },
    ]);
    expect(JSON.parse(mine[1]?.ref ?? '')).toEqual({
      inviteeId: expect.any(Number),
      level: 1,
      sourcePostingId: expect.any(Number),
    });
  });
});

describe('admin/export/withdrawals.csv', () => {
  it('lists the withdrawals requested in the range with their state, account and review', async () => {
    const from = encodeURIComponent(new Date(Date.now() - 1000).toISOString());
    const user = await payee(ctx, 500);
    const first = await withdraw(ctx, user.token, { amount: 150 });
    const second = await withdraw(ctx, user.token, { amount: 120 });
    expect([first.status, second.status]).toEqual([200, 200]);
    const rejected = await review(ctx, second.body.data.id, 'reject', '=bad account');
    expect(rejected.status).toBe(200);

    const res = await download(`/export/withdrawals.csv?from=${from}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="withdrawals-\d{8}T\d{6}Z\.csv"$/);
    expect(res.records[0]).toEqual([...WITHDRAWAL_EXPORT_COLUMNS]);
    const mine = res.records
      .slice(1)
      .map((r) => byColumn(WITHDRAWAL_EXPORT_COLUMNS, r))
      .filter((r) => r.user_id === String(user.id));
    expect(mine).toEqual([
      expect.objectContaining({
        id: String(first.body.data.id),
        username: user.username,
        state: 'pending',
        amount: '150.00',
        account_type: 'upi',
        account_no: 'asha.k@okaxis',
        account_name: 'Asha Kumari',
        reason: '',
        reviewer_id: '',
        reviewed_at: '',
      }),
      expect.objectContaining({
        id: String(second.body.data.id),
        state: 'rejected',
        amount: '120.00',
        // A reason typed by an operator is text a spreadsheet must not run.
        reason: "'=bad account",
        reviewer_id: expect.stringMatching(/^\d+$/),
        reviewed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      }),
    ]);

    const before = await download(`/export/withdrawals.csv?to=2000-01-01`);
    expect(before.records).toEqual([[...WITHDRAWAL_EXPORT_COLUMNS]]);
  });

  it('streams more than one batch, every row once and in order', async () => {
    const user = await payee(ctx, 0);
    const rows = EXPORT_BATCH_ROWS * 2 + 500;
    // Closed withdrawals hold no money, so the ledger stays balanced without postings.
    await ctx.db.execute(sql`
      insert into ${withdrawals} (user_id, account_type, ifsc, account_no, account_name, amount, state, reason, created_at)
      select ${user.id}, 'upi', '', 'seed' || g || '@upi', 'Seed ' || g, 10000 + g, 'rejected', 'seed',
             timestamptz '2024-06-01 00:00:00+05:30' + (g / 2) * interval '1 second'
      from generate_series(1, ${rows}) g`);
    const res = await fetch(`${await listening()}${ADMIN}/export/withdrawals.csv?from=2024-06-01&to=2024-06-01`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.status).toBe(200);
    // Streamed: sent in chunks with no length known in advance.
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const records = parseCsv(await res.text());
    expect(records[0]).toEqual([...WITHDRAWAL_EXPORT_COLUMNS]);
    const body = records.slice(1).map((r) => byColumn(WITHDRAWAL_EXPORT_COLUMNS, r));
    expect(body).toHaveLength(rows);
    expect(new Set(body.map((r) => r.id)).size).toBe(rows);
    // Oldest first, by (created_at, id): ISO times of one length sort as text.
    const order = body.map((r) => `${r.created_at} ${r.id.padStart(12, '0')}`);
    expect(order).toEqual([...order].sort());
    expect(body[0]).toMatchObject({ account_no: 'seed1@upi', amount: '100.01', state: 'rejected' });
  });
});

/** 100,000 revenue postings over four wallets on 15 January 2025 (India), three to a second. */
async function seedMovements(count: number) {
  const wallets: number[] = [];
  for (let i = 0; i < 4; i++) {
    const user = await ctx.newUser();
    const rows = await ctx.db.execute(sql`select id from accounts where user_id = ${user.id} and kind = 'wallet'`);
    wallets.push(Number((rows as unknown as { rows: { id: string }[] }).rows[0]?.id));
  }
  const seeded = sql`p.idempotency_key like 'seed:%'`;
  await ctx.db.execute(sql`
    insert into postings (type, idempotency_key, ref, created_at)
    select 'manual_credit', 'seed:' || g, jsonb_build_object('taskId', g % 3),
           timestamptz '2025-01-15 00:00:00+05:30' + (g / 3) * interval '1 second'
    from generate_series(1, ${count}) g`);
  await ctx.db.execute(sql`
    insert into entries (posting_id, account_id, amount, balance_after, created_at)
    select s.id, s.account_id, s.amount,
           a.balance + sum(s.amount) over (partition by s.account_id order by s.id), s.created_at
    from (
      select p.id, p.created_at, (array[${sql.raw(wallets.join(','))}])[1 + p.id % 4] as account_id,
             (100 + p.id % 7)::bigint as amount
      from postings p where ${seeded}
    ) s join accounts a on a.id = s.account_id
    order by s.id`);
  await ctx.db.execute(sql`
    insert into entries (posting_id, account_id, amount, created_at)
    select e.posting_id, (select id from accounts where user_id is null and kind = 'platform_revenue'), -e.amount, e.created_at
    from entries e join postings p on p.id = e.posting_id where ${seeded}`);
  await ctx.db.execute(sql`
    update accounts a set balance = a.balance + s.total
    from (
      select e.account_id, sum(e.amount) as total from entries e join postings p on p.id = e.posting_id
      where ${seeded} and e.account_id in (${sql.raw(wallets.join(','))}) group by e.account_id
    ) s
    where a.id = s.account_id`);
}

/** Peak growth of the heap and of the resident set while `work` runs, sampled every 5 ms. */
/**
 * The most memory `work` holds at once above what was held before it. Every sample collects garbage
 * first (at most every 50 ms, unless forced), so strings already dropped but not yet collected do not
 * count as held: without that, one run's streamed export "held" 45 MB of garbage and failed.
 */
async function peakGrowth(work: (sample: (force?: boolean) => void) => Promise<void>) {
  gc();
  const before = process.memoryUsage();
  const peak = { heapUsed: before.heapUsed, rss: before.rss };
  let last = 0;
  const sample = (force = false) => {
    if (!force && performance.now() - last < 50) return;
    gc();
    last = performance.now();
    const now = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.rss = Math.max(peak.rss, now.rss);
  };
  const timer = setInterval(sample, 50);
  try {
    await work(sample);
  } finally {
    clearInterval(timer);
  }
  sample(true);
  return { heap: peak.heapUsed - before.heapUsed, rss: peak.rss - before.rss };
}

const MB = 2 ** 20;
const mb = (n: number) => (n / MB).toFixed(1);

describe('the movements export of 100,000 rows', () => {
  it('streams them all, in order, holding far less than the rows in memory', { timeout: 360_000 }, async () => {
    const rows = 100_000;
    await seedMovements(rows);
    const base = await listening();
    let bytes = 0;
    let records = 0;
    let ordered = true;
    let carry = '';

    const startedAt = performance.now();
    const streamed = await peakGrowth(async (sample) => {
      const url = `${base}${ADMIN}/export/movements.csv?from=2025-01-15&to=2025-01-15`;
      const init = { headers: { authorization: `Bearer ${adminToken}` } };
      // The seeding can outlast the server's keep-alive (72 s) under load: the pooled connection of the
      // earlier test may be closed just as fetch reuses it ("fetch failed"). One retry, on a new one.
      const res = await fetch(url, init).catch(() => fetch(url, init));
      expect(res.status).toBe(200);
      const decoder = new TextDecoder();
      let lastId = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        const lines = (carry + decoder.decode(chunk, { stream: true })).split('\r\n');
        carry = lines.pop() ?? '';
        for (const line of lines) {
          records += 1;
          if (records === 1) continue;
          const id = Number(line.slice(0, line.indexOf(',')));
          if (!(id > lastId)) ordered = false;
          lastId = id;
        }
        sample();
      }
    });
    const ms = performance.now() - startedAt;

    // Baseline in the same run: the same rows read at once, as an export that is not streamed must.
    let held = 0;
    const buffered = await peakGrowth(async (sample) => {
      const all = await movementBatch(ctx.db, {
        from: new Date('2025-01-15T00:00:00+05:30'),
        to: new Date('2025-01-16T00:00:00+05:30'),
        limit: rows,
      });
      sample(true); // while the rows are held
      held = all.length;
    });

    console.log(
      `movements.csv, ${rows} rows, ${mb(bytes)} MB in ${Math.round(ms)} ms: peak heap +${mb(streamed.heap)} MB, ` +
        `peak RSS +${mb(streamed.rss)} MB; the same rows read at once: heap +${mb(buffered.heap)} MB, RSS +${mb(buffered.rss)} MB`,
    );
    expect(carry).toBe('');
    expect(records).toBe(rows + 1);
    expect(ordered).toBe(true);
    expect(held).toBe(rows);
    expect(streamed.heap).toBeLessThan(buffered.heap / 2);
  });
});
