import { OTP_MAX_TRIES, type RouteDef, type RouteName, routes, SESSION_TTL_DAYS } from '@kamai/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notifications, postings, sessions } from '../src/db/schema';
import { hashToken } from '../src/platform/auth';
import { notify } from '../src/platform/notifications.queries';
import { createTestContext, type TestContext } from './helpers';

/**
 * The auth abuse walk (docs/decisions/fuzzing-and-hostile-input.md): dead tokens on every user and admin route of the
 * table, other users'
 * ids on every user route that names a resource, code and password guessing, and fields a client must
 * not set. Routes come from the table, so a route added later is walked without touching this file;
 * a new user route that names a resource must be listed in OWNED or NOT_OWNED below.
 */
const API = '/go_user/api/v1';
const WS = '/obj/ws/account';
const DAY_MS = 86_400_000;
const all = Object.entries(routes) as [RouteName, RouteDef][];
const guarded = all.filter(([, def]) => def.policy !== 'public');

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_FAILURES_PER_IP: '20' });
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

async function postingCount() {
  const [row] = await ctx.db.select({ n: count() }).from(postings);
  return row?.n ?? 0;
}

/** Calls a route with dummy path parameters and an empty body: only the policy's answer matters here. */
async function call(def: RouteDef, authorization?: string) {
  const res = await ctx.app.inject({
    method: def.method,
    url: def.path.replace(/:(\w+)/g, '9876543210'),
    headers: authorization ? { authorization } : {},
    ...(def.method === 'GET' ? {} : { payload: {} }),
  });
  return { status: res.statusCode, body: res.json() };
}

/** Every guarded route answers 401 in the envelope to this header, and no money moves. */
async function expectRefusedEverywhere(authorization: string) {
  const before = await postingCount();
  for (const [name, def] of guarded) {
    const res = await call(def, authorization);
    expect({ name, status: res.status, key: res.body.key, code: res.body.code }).toEqual({
      name,
      status: 401,
      key: 'unauthorized',
      code: 401,
    });
  }
  expect(await postingCount()).toBe(before);
}

describe('dead and forged tokens on every user and admin route', () => {
  it('walks the guarded routes of the table', () => {
    expect(guarded.length).toBeGreaterThan(45);
  });

  it.each([
    ['garbage', 'Bearer garbage'],
    ['a well-formed token nobody was given', `Bearer ${Buffer.alloc(32, 7).toString('base64url')}`],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic YWRtaW46c2VjcmV0MTIz'],
    ["the token's hash instead of the token", 'HASH'],
  ])('refuses %s', async (_name, header) => {
    const { token } = await ctx.registerUser();
    await expectRefusedEverywhere(header === 'HASH' ? `Bearer ${hashToken(token)}` : header);
  });

  it('refuses an expired token, and lets it in again only if the clock is wrong', async () => {
    const { token } = await ctx.registerUser();
    const admin = await ctx.adminToken();
    ctx.advance((SESSION_TTL_DAYS + 1) * DAY_MS);
    try {
      await expectRefusedEverywhere(`Bearer ${token}`);
      await expectRefusedEverywhere(`Bearer ${admin}`);
    } finally {
      ctx.advance(-(SESSION_TTL_DAYS + 1) * DAY_MS);
    }
    expect((await ctx.get(`${API}/user/user/detail`, { token })).status).toBe(200);
  });

  it('refuses a token after logout', async () => {
    const { token } = await ctx.registerUser();
    expect((await ctx.post(`${API}/user/user/logout`, {}, { token })).status).toBe(200);
    await expectRefusedEverywhere(`Bearer ${token}`);
  });

  it("refuses the other sessions' tokens after a password change, keeps the one that changed it", async () => {
    const { username, password, token: first } = await ctx.registerUser();
    const second = (await ctx.post(`${API}/common/user/login`, { username, password })).body.data.token;
    const changed = await ctx.post(
      `${API}/user/edit/password`,
      { oldPassword: password, password: 'newpass99', password2: 'newpass99' },
      { token: second },
    );
    expect(changed.status).toBe(200);
    await expectRefusedEverywhere(`Bearer ${first}`);
    expect((await ctx.get(`${API}/user/user/detail`, { token: second })).status).toBe(200);
  });

  it('refuses the token of a session deleted from the database (an operator ending it)', async () => {
    const { token } = await ctx.registerUser();
    await ctx.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    await expectRefusedEverywhere(`Bearer ${token}`);
  });

  it("refuses every user's tokens after an admin resets that user's password", async () => {
    const user = await ctx.newUser();
    const reset = await ctx.post(
      `${API}/admin/user/resetpass`,
      { userId: user.id, password: 'reset1234' },
      { token: await ctx.adminToken() },
    );
    expect(reset.body).toMatchObject({ code: 200, data: { sessionsEnded: 1 } });
    await expectRefusedEverywhere(`Bearer ${user.token}`);
  });
});

/** The field names by which a user route names something that belongs to one user. */
const RESOURCE_FIELDS = ['id', 'phone', 'qrId', 'accountId', 'withdrawalId', 'payoutAccountId', 'userId', 'taskId'];

function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
  return Object.keys(json.properties ?? {});
}

const resourceRoutes = all
  .filter(([, def]) => def.policy === 'user')
  .filter(([, def]) =>
    [...fieldsOf(def.params), ...fieldsOf(def.query), ...fieldsOf(def.body)].some((f) => RESOURCE_FIELDS.includes(f)),
  )
  .map(([name]) => name);

/** User routes that name a resource of the caller's own; each gets a test below with another user's. */
const OWNED = [
  'linkedGenPhoneCode',
  'linkedQrStatus',
  'linkedLogout',
  'linkedLogList',
  'linkedSettlement',
  'linkedIsBound',
  'noticeDetail',
  'wdaccountEdit',
  'wdaccountDelete',
  'withdrawAdd',
  'withdrawCancel',
  'complaintDetail',
] as const satisfies readonly RouteName[];
/** User routes that name something shared by everyone, with the reason. */
const NOT_OWNED: Partial<Record<RouteName, string>> = {
  taskFinish: 'tasks are the same for every user; the reward goes to the caller',
  taskProofSubmit: 'tasks are the same for every user; the proof is filed as the caller’s own',
};

describe("another user's ids on every user route that names a resource", () => {
  it('lists every such route of the table as owned or shared (a new one must be added here)', () => {
    expect(resourceRoutes.length).toBeGreaterThan(5);
    const unlisted = resourceRoutes.filter((name) => !(OWNED as readonly string[]).includes(name) && !NOT_OWNED[name]);
    expect(unlisted).toEqual([]);
  });

  it('never lets user B see, change or settle what belongs to user A', async () => {
    const admin = await ctx.adminToken();
    const a = await ctx.newUser();
    const b = await ctx.newUser();
    const digits = ctx.uniquePhone();
    expect((await ctx.post(`${WS}/login/genPhoneCode`, { phone: digits }, { token: a.token })).status).toBe(200);
    expect((await ctx.post(`${API}/admin/ws/complete`, { phone: digits }, { token: admin })).status).toBe(200);
    const phone = `91${digits}`;
    await notify(ctx.db, {
      userId: a.id,
      kind: 'reward_credited',
      params: { amount: '5.00' },
      dedupeKey: `abuse:${a.id}`,
    });
    const [note] = await ctx.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.userId, a.id));
    // An hour on, so settling would pay if B were let in (the clock goes back at the end).
    ctx.advance(3_600_000);
    const qr = (await ctx.post(`${WS}/login/getQRCode`, {}, { token: a.token })).body.data.id as string;
    const bound = await ctx.post(
      `${API}/user/wdaccount/bind`,
      { accountType: 'upi', accountNo: 'asha@okaxis', accountName: 'Asha Rao', isDefault: 1 },
      { token: a.token },
    );
    expect(bound.status).toBe(200);
    const accountId = bound.body.data.id as number;
    // B has money, so only the account's owner decides whether the withdrawal could go through.
    await ctx.post(`${API}/admin/revenue/add`, { userId: b.id, amount: '500', remark: 'abuse test' }, { token: admin });
    // A's own withdrawal under review, which B must not be able to cancel.
    await ctx.post(`${API}/admin/revenue/add`, { userId: a.id, amount: '500', remark: 'abuse test' }, { token: admin });
    const own = await ctx.post(`${API}/user/withdraw/add`, { amount: '150', accountId }, { token: a.token });
    expect(own.status).toBe(200);
    const withdrawalId = own.body.data.id as number;
    const complaint = await ctx.post(
      `${API}/user/complaint/add`,
      { category: 'withdrawal', text: 'My payout is late', subject: { kind: 'withdrawal', id: withdrawalId } },
      { token: a.token },
    );
    expect(complaint.status).toBe(200);
    const before = await postingCount();

    const put = async (url: string, payload: unknown) => {
      const res = await ctx.app.inject({
        method: 'PUT',
        url,
        payload: payload as object,
        headers: { authorization: `Bearer ${b.token}` },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const attempts: Record<(typeof OWNED)[number], () => Promise<{ status: number; body: { key: string } }>> = {
      linkedGenPhoneCode: () => ctx.post(`${WS}/login/genPhoneCode`, { phone }, { token: b.token }),
      linkedQrStatus: () => ctx.get(`${WS}/login/qr-status?id=${qr}`, { token: b.token }),
      linkedLogout: () => put(`${WS}/logout`, { phone }),
      linkedLogList: () => ctx.get(`${WS}/log/list?phone=${phone}`, { token: b.token }),
      linkedSettlement: () => put(`${WS}/settlement/${phone}`, {}),
      linkedIsBound: () => ctx.get(`${WS}/${phone}/is-bound`, { token: b.token }),
      noticeDetail: () => ctx.get(`${API}/common/notice/detail?kind=notification&id=${note?.id}`, { token: b.token }),
      wdaccountEdit: () =>
        ctx.post(
          `${API}/user/wdaccount/edit`,
          { id: accountId, accountType: 'upi', accountNo: 'thief@okaxis', accountName: 'Thief' },
          { token: b.token },
        ),
      wdaccountDelete: () => ctx.post(`${API}/user/wdaccount/delete`, { id: accountId }, { token: b.token }),
      withdrawAdd: () => ctx.post(`${API}/user/withdraw/add`, { amount: '150', accountId }, { token: b.token }),
      withdrawCancel: () => ctx.post(`${API}/user/withdraw/cancel`, { id: withdrawalId }, { token: b.token }),
      complaintDetail: () => ctx.get(`${API}/user/complaint/detail?id=${complaint.body.data.id}`, { token: b.token }),
    };
    const expected: Record<(typeof OWNED)[number], string> = {
      linkedGenPhoneCode: 'phone_linked_elsewhere',
      linkedQrStatus: 'pairing_not_found',
      linkedLogout: 'linked_account_not_found',
      linkedLogList: 'linked_account_not_found',
      linkedSettlement: 'linked_account_not_found',
      linkedIsBound: 'linked_account_not_found',
      noticeDetail: 'notice_not_found',
      wdaccountEdit: 'payout_account_not_found',
      wdaccountDelete: 'payout_account_not_found',
      withdrawAdd: 'payout_account_not_found',
      withdrawCancel: 'withdrawal_not_found',
      complaintDetail: 'complaint_not_found',
    };
    for (const name of OWNED) {
      const res = await attempts[name]();
      expect({ name, key: res.body.key }).toEqual({ name, key: expected[name] });
      expect(res.status).toBeGreaterThanOrEqual(400);
    }
    expect(await postingCount()).toBe(before);
    // A's things are as they were: still Online, the notification unread, the QR pending.
    const page = (await ctx.get(`${WS}/page`, { token: a.token })).body.data.items;
    expect(page).toMatchObject([{ phone, status: 'online' }]);
    expect((await ctx.get(`${API}/user/notice/unread`, { token: a.token })).body.data.notifications).toBe(1);
    expect((await ctx.get(`${WS}/login/qr-status?id=${qr}`, { token: a.token })).body.data.state).toBe('pending');
    const accounts = (await ctx.get(`${API}/user/wdaccount/list`, { token: a.token })).body.data;
    expect(JSON.stringify(accounts)).toContain('Asha Rao');
    expect((await ctx.get(`${API}/user/withdraw/list`, { token: b.token })).body.data.items).toEqual([]);
    const aWithdrawals = (await ctx.get(`${API}/user/withdraw/list`, { token: a.token })).body.data.items;
    expect(aWithdrawals).toMatchObject([{ id: withdrawalId, state: 'pending' }]);
    // And B's own view of the world is empty.
    expect((await ctx.get(`${WS}/page`, { token: b.token })).body.data.items).toEqual([]);
    ctx.advance(-3_600_000);
  });
});

describe('guessing codes and passwords', () => {
  it(`voids a code after ${OTP_MAX_TRIES} wrong tries: the right code is refused after them`, async () => {
    const typed = ctx.uniquePhone();
    const username = `91${typed}`;
    expect((await ctx.post(`${API}/common/otp/send`, { target: typed, type: 1 })).status).toBe(200);
    const code = await ctx.lastCode(username);
    const wrong = code === '000000' ? '111111' : '000000';
    const register = (verifyCode: string) =>
      ctx.post(`${API}/common/user/register`, {
        username: typed,
        password: 'secret123',
        password2: 'secret123',
        verifyCode,
        inviteCode: ctx.admin.inviteCode,
      });
    const keys: string[] = [];
    for (let i = 0; i < OTP_MAX_TRIES; i++) keys.push((await register(wrong)).body.key);
    expect(keys.slice(0, -1).every((k) => k === 'verification_code_incorrect')).toBe(true);
    const last = await register(code);
    expect(last).toMatchObject({ status: 400, body: { key: 'verification_code_not_found' } });
  });

  it('locks one account at one address after 10 failures, and one address after 20 whatever the account', async () => {
    const victim = await ctx.registerUser();
    for (let i = 0; i < 10; i++) {
      const res = await ctx.post(
        `${API}/common/user/login`,
        { username: victim.username, password: 'nope' },
        { ip: '10.1.0.1' },
      );
      expect(res.body.key).toBe('incorrect_username_or_password');
    }
    const locked = await ctx.post(`${API}/common/user/login`, victim, { ip: '10.1.0.1' });
    expect(locked).toMatchObject({ status: 429, body: { code: 429, key: 'login_locked' } });
    // The owner elsewhere is not locked out by someone else's guesses (docs/decisions/login-throttling.md).
    expect((await ctx.post(`${API}/common/user/login`, victim, { ip: '10.1.1.1' })).status).toBe(200);

    const sprayer = '10.2.0.1';
    for (let i = 0; i < 20; i++) {
      const res = await ctx.post(
        `${API}/common/user/login`,
        { username: ctx.uniquePhone(), password: 'nope' },
        { ip: sprayer },
      );
      expect(res.status).toBe(400);
    }
    const someone = await ctx.registerUser();
    expect((await ctx.post(`${API}/common/user/login`, someone, { ip: sprayer })).status).toBe(429);
    expect((await ctx.post(`${API}/common/user/login`, someone, { ip: '10.2.0.2' })).status).toBe(200);
  });
});

/** Keys that would set what only the server or an operator decides. */
const SMUGGLED = ['balance', 'role', 'userId', 'frozen', 'hold'];

/** The object at the root of a request schema (through refinements and pipes). */
function rootObject(schema: z.ZodType): z.ZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe) return rootObject(schema.in as z.ZodType);
  return undefined;
}

describe('mass assignment', () => {
  /**
   * The gateway's callback and Twilio's status callback keep every parameter they are sent: their
   * signatures cover all of them, so a parameter we do not name must still be verified, not dropped.
   * MSG91's delivery report is an object (v2/v3) or an array of reports (v4), so it has no root object.
   * None of them sets anything of a user's.
   */
  const KEEPS_UNKNOWN: readonly string[] = ['payNotifyMasterpay', 'smsReportTwilio', 'smsReportMsg91'];
  const requestSchemas = all
    .filter(([name]) => !KEEPS_UNKNOWN.includes(name))
    .flatMap(([name, def]) =>
      (['body', 'query', 'params'] as const).flatMap((part) =>
        def[part] ? [{ name, def, part, schema: def[part] }] : [],
      ),
    );

  it.each(requestSchemas)('$name $part: an object that drops keys it does not name', ({ schema }) => {
    const root = rootObject(schema as z.ZodType);
    expect(root).toBeDefined();
    // Strip mode (zod's default): unknown keys are dropped before a handler sees them, never passed on.
    expect(root?._zod.def.catchall).toBeUndefined();
  });

  it.each(requestSchemas.filter(({ def }) => def.policy !== 'admin'))(
    '$name $part: a user route takes none of balance, role, userId, frozen, hold',
    ({ schema }) => {
      const keys = Object.keys(rootObject(schema as z.ZodType)?.shape ?? {});
      expect(keys.filter((k) => SMUGGLED.includes(k))).toEqual([]);
    },
  );

  it('ignores balance, role, userId, id and frozen sent with registration, a task claim and a password change', async () => {
    const other = await ctx.newUser();
    const typed = ctx.uniquePhone();
    await ctx.post(`${API}/common/otp/send`, { target: typed, type: 1 });
    const smuggled = { balance: '100000', role: 'admin', userId: other.id, id: other.id, frozen: true, hold: 5 };
    const registered = await ctx.post(`${API}/common/user/register`, {
      username: typed,
      password: 'secret123',
      password2: 'secret123',
      verifyCode: await ctx.lastCode(`91${typed}`),
      inviteCode: ctx.admin.inviteCode,
      ...smuggled,
    });
    expect(registered.status).toBe(200);
    const token = registered.body.data.token as string;
    const me = (await ctx.get(`${API}/user/user/detail`, { token })).body.data;
    expect(me).toMatchObject({ role: 'user', balance: '5.00' });
    expect(me.id).not.toBe(other.id);
    expect((await ctx.get(`${API}/admin/dashboard`, { token })).status).toBe(403);

    const otherBefore = await ctx.balanceOf(other.token);
    // A friend registers with the new user's code: task 5 becomes claimable once a registration counts
    // as an invite (the default waits for the friend's first task: docs/decisions/fraud-signals.md).
    const admin = await ctx.adminToken();
    expect(
      (await ctx.control(`${API}/admin/settings/set`, { risk: { qualifiedInvite: 'registration' } }, { token: admin }))
        .status,
    ).toBe(200);
    await ctx.newUser({ inviteCode: me.inviteCode });
    const claim = await ctx.post(`${API}/user/task/finish`, { taskId: 5, ...smuggled }, { token });
    expect(claim.status).toBe(200);
    expect(await ctx.balanceOf(other.token)).toBe(otherBefore);

    const change = await ctx.post(
      `${API}/user/edit/password`,
      { oldPassword: 'secret123', password: 'changed99', password2: 'changed99', ...smuggled },
      { token },
    );
    expect(change.status).toBe(200);
    expect(
      (await ctx.post(`${API}/common/user/login`, { username: other.username, password: other.password })).status,
    ).toBe(200);
  });
});
