import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEPT_AFTER_DELETION, LOCALES } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, callbackUrl, fund, nowSeconds, review, withdraw } from './payout-helpers';
import { png, uploadFile } from './upload-helpers';

/**
 * Erasure that reaches every copy (docs/decisions/account-deletion.md): a user with everything the
 * app stores deletes the account; then every table of the schema (read from the database's catalogue,
 * not a hand list) and every file under the data folder is searched for what identified the user.
 * Rows still tied to the user may only be in the tables `KEPT_AFTER_DELETION` names, and nothing
 * anywhere may still hold the user's address, numbers, names or uploads.
 */
const SECRET = 'erasure-walk-secret-0123456789';
let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-erasure-'));
  ctx = await createTestContext({
    DATA_DIR: dataDir,
    SANDBOX_PAYOUT_DELAY_MS: '3600000',
    PAYOUT_GATEWAY_SECRET: SECRET,
  });
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function uploadProof(token: string, content: Buffer) {
  const res = await uploadFile(ctx, `${API}/user/task/proof/upload`, token, content, 'zubeida-proof.png');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { url: string; sha256: string };
}

async function ok(res: Promise<{ status: number; body: { data?: unknown } }>) {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Record<string, unknown>;
}

/** Every base table of the public schema, from the catalogue. */
async function tables() {
  const result = await ctx.db.execute(
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return (result as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
}

/** Every (table, column) with a foreign key to users(id), from the catalogue. */
async function userColumns() {
  const result = await ctx.db.execute(
    sql`select c.conrelid::regclass::text as table_name, a.attname as column_name
        from pg_constraint c
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
        where c.contype = 'f' and c.confrelid = 'users'::regclass
        order by 1, 2`,
  );
  return (result as unknown as { rows: { table_name: string; column_name: string }[] }).rows;
}

async function rows(query: ReturnType<typeof sql>) {
  const result = await ctx.db.execute(query);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('deleting an account erases every copy', () => {
  it('leaves rows only in the tables the retention record names, and no identifying value anywhere', {
    timeout: 120_000,
  }, async () => {
    const admin = await ctx.adminToken();
    const EMAIL = 'zubeida.walkerova@example.com';
    const PHONE = ctx.uniquePhone();
    const NAME = 'Zubeida Walkerova';
    const BANK_NO = '771234567890';
    const IFSC = 'UTIB0002719';
    const VPA = 'zubeida.walk@okicici';

    const user = await ctx.newUser({ username: EMAIL });
    // Invites: the user's friend, invited with the user's code.
    const friend = await ctx.newUser({ inviteCode: user.inviteCode });
    // A second session, and a code sent to the user's address that was never used.
    await ok(ctx.post(`${API}/common/user/login`, { username: EMAIL, password: user.password }));
    await ctx.post(`${API}/common/otp/send`, { target: EMAIL, type: 1 });
    // Payout accounts, bank and UPI, each checked by the (sandbox) bank.
    await ok(
      ctx.post(
        `${API}/user/wdaccount/bind`,
        { accountType: 'bank', ifsc: IFSC, accountNo: BANK_NO, accountName: NAME },
        { token: user.token },
      ),
    );
    const upi = await ok(
      ctx.post(`${API}/user/wdaccount/bind`, { accountNo: VPA, accountName: NAME }, { token: user.token }),
    );
    await ctx.worker.jobs.runDue();
    // Withdrawals: one paid to the UPI id, one rejected.
    await fund(ctx, user.id, 600);
    const paid = await ok(withdraw(ctx, user.token, { amount: 200, accountId: upi.id as number }));
    expect((await review(ctx, paid.id as number, 'approve')).status).toBe(200);
    // Dispatched to the (sandbox) gateway, which keeps its own copy of the payout.
    await ctx.worker.jobs.runDue();
    const params = { orderNo: String(paid.id), status: 'success', amount: '200.00', ts: nowSeconds(ctx) };
    expect((await ctx.getText(callbackUrl({ ...params, reference: 'UTR55001234' }, SECRET))).text).toBe('success');
    const rejected = await ok(withdraw(ctx, user.token, { amount: 100 }));
    expect((await review(ctx, rejected.id as number, 'reject', 'wrong account')).status).toBe(200);
    // A proof with its screenshot, approved by an operator.
    const task = await ok(
      ctx.post(
        `${API}/admin/task/add`,
        {
          section: 'hot',
          reward: '20',
          titles: { en_US: 'Share Kamai' },
          verification: { kind: 'proof', proof: 'screenshot' },
        },
        { token: admin },
      ),
    );
    const shot = await uploadProof(user.token, png(71));
    const proof = await ok(
      ctx.post(`${API}/user/task/proof/submit`, { taskId: task.id, imageUrl: shot.url }, { token: user.token }),
    );
    expect(
      (await ctx.post(`${API}/admin/task/proof/review`, { id: proof.id, action: 'approve' }, { token: admin })).status,
    ).toBe(200);
    // A notice seen, a survey answered, a linked messaging number, a push subscription.
    const notice = await ok(ctx.post(`${API}/admin/notice/add`, { title: 'Walk notice', body: 'b' }, { token: admin }));
    await ok(ctx.get(`${API}/common/notice/detail?id=${notice.id}`, { token: user.token }));
    await ok(ctx.post(`${API}/user/survey/submit`, { a: 0, b: 3, c: 4, d: 1, e: 2, f: 1 }, { token: user.token }));
    await ok(
      ctx.post('/obj/ws/account/login/genPhoneCode', { phone: PHONE, countryCode: '91' }, { token: user.token }),
    );
    await ok(ctx.post(`${API}/admin/ws/complete`, { phone: PHONE }, { token: admin }));
    ctx.advance(3600_000);
    // An hour online, settled: linked income on the ledger.
    const settled = await ctx.app.inject({
      method: 'PUT',
      url: `/obj/ws/account/settlement/91${PHONE}`,
      payload: {},
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(settled.statusCode, settled.body).toBe(200);
    await ctx.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
      p256dh: 'BNc'.padEnd(87, 'A'),
      auth: 'tBHItJI5svbpez7KI4CCXg',
      locale: 'en_US',
    });
    await ctx.worker.jobs.runDue();

    const identifying = [
      EMAIL,
      'zubeida.walkerova',
      PHONE,
      BANK_NO,
      IFSC,
      VPA,
      NAME,
      'Walkerova',
      shot.sha256,
      user.inviteCode,
    ];
    // The walk finds the user before the deletion (so a quiet search proves nothing by itself).
    const before = await walk(identifying);
    expect(Object.keys(before.hits)).toEqual(
      expect.arrayContaining(['users', 'payout_accounts', 'account_validations', 'withdrawals', 'uploads']),
    );

    expect(
      (await ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token })).status,
    ).toBe(200);
    await ctx.worker.jobs.runDue();

    const after = await walk(identifying);
    // What is left of the user, table by table (the rows that still point at the user's id).
    const kept = new Set<string>(KEPT_AFTER_DELETION.flatMap((item) => item.tables));
    const left = (await userColumns()).length > 0 ? await leftRows(user.id) : {};
    const unnamed = Object.keys(left).filter((table) => !kept.has(table));
    // One assertion, so a failure lists every kind of leftover at once.
    expect(
      { unnamed, hits: after.hits, files: after.files },
      `rows left of the deleted user: ${JSON.stringify(left)}`,
    ).toEqual({
      unnamed: [],
      hits: {},
      files: [],
    });
    // The friend the user invited is untouched.
    expect((await ctx.get(`${API}/user/user/detail`, { token: friend.token })).status).toBe(200);
  });
});

describe('the Privacy policy lists what is kept', () => {
  it('numbers exactly the retention items, in every language of a fresh install', async () => {
    for (const locale of LOCALES) {
      const page = await ctx.get(`${API}/common/page/detail?slug=privacy`, { lang: locale });
      const body = String(page.body.data.body);
      // Not "rule 3(2)": an item's number stands on its own.
      const numbered = [...body.matchAll(/(?<!\w)\((\d)\)/g)].map((m) => Number(m[1]));
      expect(numbered, locale).toEqual(KEPT_AFTER_DELETION.map((_, i) => i + 1));
    }
  });
});

/** Tables (with their matching rows' text) and files that hold any of `values`. */
async function walk(values: string[]) {
  const patterns = values.map((v) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const hits: Record<string, string[]> = {};
  for (const table of await tables()) {
    const found = await rows(
      sql`select x::text as row from ${sql.identifier(table)} x where x::text ilike any (${sql.raw(
        `array[${patterns.map((p) => `'${p.replace(/'/g, "''")}'`).join(',')}]`,
      )})`,
    );
    if (found.length > 0) hits[table] = found.map((r) => String(r.row));
  }
  const lowered = values.map((v) => v.toLowerCase());
  const matched = files(dataDir).filter((path) => {
    const name = path.toLowerCase();
    const small = statSync(path).size < 1_000_000 ? readFileSync(path, 'latin1').toLowerCase() : '';
    return lowered.some((v) => name.includes(v) || small.includes(v));
  });
  return { hits, files: matched };
}

/** The rows of every table that still point at the user by a foreign key to users(id). */
async function leftRows(userId: number) {
  const left: Record<string, number> = {};
  for (const { table_name, column_name } of await userColumns()) {
    const [row] = await rows(
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)} = ${userId}`,
    );
    const n = Number(row?.n ?? 0);
    if (n > 0) left[table_name] = (left[table_name] ?? 0) + n;
  }
  return left;
}
