import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INVITE_CODE_ALPHABET,
  isMessageKey,
  PAIRING_CODE_ALPHABET,
  type RouteDef,
  routes,
  statusOf,
} from '@kamai/contract';
import { count } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postings } from '../src/db/schema';
import { type FuzzRequest, type Hints, isoDateTime, requestArb } from './fuzz-arbitraries';
import { createTestContext, type TestContext } from './helpers';

/**
 * Fuzzes every route of the route table (a route added later is fuzzed without touching this file)
 * with requests made from its contract plus hostile values. Whatever comes in: no 5xx, every failure
 * is the envelope with `code` = HTTP status and a catalogue key of that status, and a refused request
 * leaves the ledger as it was. FUZZ_RUNS cases per route (200 in CI); FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.CI === 'true' ? 200 : 40));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const API = '/go_user/api/v1';
const WS = '/obj/ws/account';

let ctx: TestContext;
let dataDir: string;
const user = { username: '', password: 'secret123', token: '', phone: '' };
const tokens = { admin: '', reviewer: '' };
let hints: Hints;

const phoneDigits = fc.stringMatching(/^[6-9]\d{9}$/);

async function linkPhone(token: string) {
  const digits = ctx.uniquePhone();
  const code = await ctx.post(`${WS}/login/genPhoneCode`, { phone: digits }, { token });
  const done = await ctx.post(`${API}/admin/ws/complete`, { phone: digits }, { token: tokens.admin });
  if (code.status !== 200 || done.status !== 200) throw new Error('could not link a number');
  return `91${digits}`;
}

/** The fuzzed routes may log the user out, reset its password or end its sessions: start it again. */
async function ensureUser() {
  if (await ctx.liveSession(user.token)) return;
  const again = await ctx.post(`${API}/common/user/login`, {
    username: user.username,
    password: user.password,
  });
  if (again.status === 200) {
    user.token = again.body.data.token;
    return;
  }
  const fresh = await ctx.newUser();
  Object.assign(user, { username: fresh.username, password: fresh.password, token: fresh.token });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-fuzz-'));
  ctx = await createTestContext({ DATA_DIR: dataDir });
  tokens.admin = await ctx.adminToken();
  const reviewer = await ctx.newUser();
  await ctx.control(`${API}/admin/user/role`, { userId: reviewer.id, role: 'reviewer' }, { token: tokens.admin });
  tokens.reviewer = reviewer.token;
  const made = await ctx.newUser();
  Object.assign(user, { username: made.username, token: made.token });
  user.phone = await linkPhone(user.token);
  // Something for the ids to find: a custom task, a notice, a revenue credit (a posting with rebates).
  await ctx.post(
    `${API}/admin/task/add`,
    { section: 'hot', reward: 5, titles: { en_US: 'Fuzz' }, verification: { kind: 'proof', proof: 'link' } },
    { token: tokens.admin },
  );
  await ctx.post(
    `${API}/admin/notice/add`,
    { title: 'Hello', body: 'World', published: true },
    { token: tokens.admin },
  );
  await ctx.post(
    `${API}/admin/revenue/add`,
    { userId: made.id, amount: '10.50', remark: 'fuzz' },
    { token: tokens.admin },
  );

  const id = fc.oneof(
    fc.integer({ min: 1, max: 30 }),
    fc.constantFrom(made.id, reviewer.id, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1),
  );
  const rupees = fc.oneof(
    fc.integer({ min: 1, max: 100_000 }),
    fc
      .tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 99 }))
      .map(([r, p]) => `${r}.${String(p).padStart(2, '0')}`),
    fc.constantFrom(0, -1, 0.001, 1.005, 99_999_999_999.99, '999999999999.99', ' 12.5 ', '1e3', '12.'),
  );
  const cursorValue = fc.oneof(
    fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 2 ** 31),
    fc.record({
      pinned: fc.boolean(),
      atUs: fc.oneof(
        fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }).map(String),
        fc.constantFrom('0', '99999999999999999999'),
      ),
      rank: fc.oneof(fc.integer(), fc.maxSafeInteger()),
      id: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.maxSafeInteger()),
    }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  hints = {
    username: fc.oneof(phoneDigits, fc.emailAddress(), fc.constantFrom(user.username, ctx.admin.username)),
    target: fc.oneof(phoneDigits, fc.emailAddress()),
    phone: fc.oneof(
      phoneDigits,
      fc.constant(user.phone),
      phoneDigits.map((d) => `+91 ${d}`),
    ),
    password: fc.constantFrom('secret123', 'newpass1'),
    password2: fc.constantFrom('secret123', 'newpass1'),
    oldPassword: fc.constantFrom('secret123', 'wrong-one'),
    verifyCode: fc.stringMatching(/^\d{6}$/),
    inviteCode: fc.oneof(
      fc.constant(ctx.admin.inviteCode),
      fc.string({ unit: fc.constantFrom(...INVITE_CODE_ALPHABET), minLength: 8, maxLength: 8 }),
    ),
    code: fc.string({ unit: fc.constantFrom(...PAIRING_CODE_ALPHABET), minLength: 8, maxLength: 8 }),
    id,
    userId: id,
    taskId: fc.oneof(fc.integer({ min: 1, max: 12 }), id),
    inviterId: id,
    actorId: id,
    amount: rupees,
    reward: rupees,
    hourlyRate: rupees,
    cursor: cursorValue.map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    from: isoDateTime,
    to: isoDateTime,
    videoUrl: fc.constantFrom('/uploads/a.mp4', 'https://example.com/v.mp4', 'javascript:alert(1)', ''),
    imageUrl: fc.constantFrom('/uploads/a.png', 'https://example.com/a.png', 'data:image/png;base64,AA'),
  };
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function postingCount() {
  const [row] = await ctx.db.select({ n: count() }).from(postings);
  return row?.n ?? 0;
}

function tokenFor(def: RouteDef): string | undefined {
  if (def.policy === 'public') return undefined;
  if (def.policy === 'user') return user.token;
  return tokens.admin;
}

async function send(def: RouteDef, req: FuzzRequest) {
  const headers: Record<string, string> = {};
  const token = tokenFor(def);
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  if (req.acceptLanguage !== undefined) headers['accept-language'] = req.acceptLanguage;
  if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  return ctx.app.inject({
    method: def.method,
    url: req.url,
    headers,
    remoteAddress: req.ip,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

const entries = Object.entries(routes) as [string, RouteDef][];

describe(`fuzzing every route of the table (${RUNS} cases each)`, () => {
  it('walks the whole table', () => {
    expect(entries.length).toBeGreaterThan(50);
  });

  it.each(entries)(
    '%s',
    async (_name, def) => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArb(def, hints), async (req) => {
          await ensureUser();
          const before = await postingCount();
          const res = await send(def, req);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const where = `${def.method} ${req.url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          if (res.statusCode >= 500) {
            const logged = ctx.logs.filter((line) => line.includes(res.headers['x-request-id'] as string));
            expect.fail(`${where}\n${logged.join('\n').slice(0, 2000)}`);
          }
          if (def.produces && res.statusCode === 200) return;
          expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
          const body = JSON.parse(res.body);
          expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'key', 'message']);
          expect(body.code, where).toBe(res.statusCode);
          expect(isMessageKey(body.key), where).toBe(true);
          // A field's own key may stand in a 400 (a malformed id answers "not found" text): see data.fields.
          if (!body.data?.fields) expect(statusOf(body.key), where).toBe(res.statusCode);
          expect(typeof body.message, where).toBe('string');
          if (res.statusCode !== 200) {
            expect(typeof body.data === 'object' && body.data !== null, where).toBe(true);
            expect(await postingCount(), `a refused request moved money: ${where}`).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
      // The mix of answers, for whoever tunes the arbitraries (FUZZ_VERBOSE=1).
      if (process.env.FUZZ_VERBOSE) console.log(_name, Object.fromEntries(statuses));
      ctx.logs.length = 0;
      // Logout and password routes end the session, so most of their cases register a user again
      // (a password hash each): minutes on a busy 2-core machine, well past the default 30 s.
    },
    180_000,
  );
});
