import { count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, linkedAccounts, postings } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
const WS = '/obj/ws/account';
const HOUR = 3600_000;
let ctx: TestContext;
let offsetMs = 0;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** Online seconds measured between requests: the real time the requests took adds a little. */
function expectSeconds(actual: number, expected: number) {
  expect(actual).toBeGreaterThanOrEqual(expected);
  expect(actual).toBeLessThan(expected + 10);
}

function advance(ms: number) {
  offsetMs += ms;
  ctx.advance(ms);
}

/** Moves the clock to 5 s after the next full hour, so a test's settlements fall in known intervals. */
function toNextHour() {
  const now = Date.now() + offsetMs;
  advance(HOUR - (now % HOUR) + 5_000);
}

async function put(url: string, body: unknown, token: string) {
  const res = await ctx.app.inject({
    method: 'PUT',
    url,
    payload: body as Record<string, unknown>,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() };
}

const genCode = (token: string, phone: string, extra: Record<string, unknown> = {}) =>
  ctx.post(`${WS}/login/genPhoneCode`, { phone, countryCode: '91', ...extra }, { token });
const complete = async (body: Record<string, unknown>) =>
  ctx.post(`${API}/admin/ws/complete`, body, { token: await ctx.adminToken() });
const setStatus = async (phone: string, status: string) =>
  ctx.post(`${API}/admin/ws/status`, { phone, status }, { token: await ctx.adminToken() });
const settle = (token: string, phone: string) => put(`${WS}/settlement/${phone}`, {}, token);
const page = async (token: string) => (await ctx.get(`${WS}/page`, { token })).body.data;
const log = async (token: string, phone: string) =>
  (await ctx.get(`${WS}/log/list?phone=${phone}`, { token })).body.data.items as { kind: string }[];

/** A user with a number linked and Online; returns the number as the API shows it (91XXXXXXXXXX). */
async function linkedUser(input: { inviteCode?: string } = {}) {
  const user = await ctx.newUser(input);
  const digits = ctx.uniquePhone();
  const code = await genCode(user.token, digits);
  expect(code.status).toBe(200);
  const done = await complete({ phone: digits });
  expect(done.status).toBe(200);
  return { ...user, phone: `91${digits}`, digits };
}

describe('linking by pairing code', () => {
  it('refuses an empty or malformed number and other countries with the spec messages', async () => {
    const user = await ctx.newUser();
    expect((await genCode(user.token, '')).body).toMatchObject({
      code: 400,
      key: 'enter_phone_number',
      message: 'Enter phone number',
    });
    const wrong = await genCode(user.token, '12345', {}).then((r) => r.body);
    expect(wrong).toMatchObject({
      key: 'invalid_phone_number_format',
      message: 'Enter a 10-digit mobile number, e.g. 98765 43210',
    });
    const hindi = await ctx.post(
      `${WS}/login/genPhoneCode`,
      { phone: '5876543210' },
      { token: user.token, lang: 'hi' },
    );
    expect(hindi.body).toMatchObject({
      key: 'invalid_phone_number_format',
      message: '10 अंकों का मोबाइल नंबर दर्ज करें, जैसे 98765 43210',
    });
    expect((await genCode(user.token, ctx.uniquePhone(), { countryCode: '1' })).body.key).toBe(
      'country_code_unsupported',
    );
    expect((await ctx.post(`${WS}/login/genPhoneCode`, { phone: ctx.uniquePhone() })).status).toBe(401);
  });

  it('answers an 8-character code, completes through the admin API and shows the number Online', async () => {
    const user = await ctx.newUser();
    const digits = ctx.uniquePhone();
    const res = await genCode(user.token, `91${digits}`);
    expect(res.body).toMatchObject({ code: 200, key: 'pairing_code_ready' });
    expect(res.body.data).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const before = await ctx.get(`${WS}/${digits}/is-bound`, { token: user.token });
    expect(before.body.data).toEqual({ bound: false, status: null, linkedAt: null, pairingPending: true });

    const done = await complete({ phone: digits, code: res.body.data.toLowerCase() });
    expect(done.body).toMatchObject({
      key: 'binding_successful',
      data: { phone: `91${digits}`, status: 'online', statusLabel: 'Online', userId: user.id, username: user.username },
    });
    const after = await ctx.get(`${WS}/91${digits}/is-bound`, { token: user.token });
    expect(after.body.data).toMatchObject({ bound: true, status: 'online', pairingPending: false });

    const list = await page(user.token);
    expect(list.items).toEqual([
      expect.objectContaining({ phone: `91${digits}`, status: 'online', earnings: '0.00', unsettledSeconds: 0 }),
    ]);
    expect(list.hourlyRate).toBe('2.00');
    expect(await log(user.token, digits)).toMatchObject([{ kind: 'linked', toStatus: 'online', method: 'code' }]);
    // The pairing is used up.
    expect((await complete({ phone: digits })).body.key).toBe('pairing_not_found');
  });

  it("refuses an operator's own number: completing its pairing and setting its status (separation of duties)", async () => {
    const admin = await ctx.adminToken();
    const digits = ctx.uniquePhone();
    const res = await genCode(admin, `91${digits}`);
    expect(res.body).toMatchObject({ code: 200, key: 'pairing_code_ready' });
    const own = await complete({ phone: digits, code: res.body.data });
    expect(own).toMatchObject({ status: 403, body: { key: 'cannot_change_own_linked_account' } });
    expect((await ctx.get(`${WS}/${digits}/is-bound`, { token: admin })).body.data).toMatchObject({ bound: false });
    // A number linked by another operator's hand cannot be switched by its owner either.
    const other = await ctx.newUser();
    const otherDigits = ctx.uniquePhone();
    const code = (await genCode(other.token, `91${otherDigits}`)).body.data;
    expect((await complete({ phone: otherDigits, code })).status).toBe(200);
    expect((await setStatus(otherDigits, 'offline')).status).toBe(200);
  });

  it('cannot complete an expired or a wrong code', async () => {
    const user = await ctx.newUser();
    const digits = ctx.uniquePhone();
    await genCode(user.token, digits);
    expect((await complete({ phone: digits, code: 'ABCDEFGH' })).body.key).toBe('pairing_not_found');
    advance(181_000);
    expect((await complete({ phone: digits })).status).toBe(404);
    expect((await ctx.get(`${WS}/${digits}/is-bound`, { token: user.token })).body.data.pairingPending).toBe(false);
  });

  it('makes the user wait 10 s between codes for one number, and logs a re-bind of a linked one', async () => {
    const user = await linkedUser();
    advance(11_000);
    expect((await genCode(user.token, user.digits)).status).toBe(200);
    const again = await genCode(user.token, user.digits);
    expect(again.body).toMatchObject({ code: 429, key: 'pairing_code_wait', data: { seconds: 10 } });
    advance(10_000);
    expect((await genCode(user.token, user.digits)).status).toBe(200);
    expect((await page(user.token)).items[0]).toMatchObject({ status: 'online', pairingPending: true });

    await setStatus(user.phone, 'offline');
    expect((await complete({ phone: user.phone })).body.data).toMatchObject({
      status: 'online',
      pairingPending: false,
    });
    expect((await log(user.token, user.phone)).map((e) => e.kind)).toEqual([
      'relinked',
      'status_changed',
      'rebind_requested',
      'rebind_requested',
      'linked',
    ]);
  });
});

describe('linking by QR code', () => {
  it('gives an expiring payload, links the number that scanned it, and reports the state', async () => {
    const user = await ctx.newUser();
    const qr = await ctx.post(`${WS}/login/getQRCode`, {}, { token: user.token });
    expect(qr.body).toMatchObject({ key: 'qr_code_ready', data: { ttlSeconds: 60 } });
    const { id, payload, expiresAt } = qr.body.data;
    expect(payload).toContain(id);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + offsetMs);

    const status = (token: string) => ctx.get(`${WS}/login/qr-status?id=${id}`, { token });
    expect((await status(user.token)).body.data).toEqual({ state: 'pending', phone: null });
    const other = await ctx.newUser();
    expect((await status(other.token)).status).toBe(404);

    const digits = ctx.uniquePhone();
    const done = await complete({ phone: digits, qrId: id });
    expect(done.body.data).toMatchObject({ userId: user.id, status: 'online' });
    expect((await status(user.token)).body.data).toEqual({ state: 'linked', phone: `91${digits}` });
    expect(await log(user.token, digits)).toMatchObject([{ kind: 'linked', method: 'qr' }]);
  });

  it('expires after its time and cannot be completed then', async () => {
    const user = await ctx.newUser();
    const { id } = (await ctx.post(`${WS}/login/getQRCode`, {}, { token: user.token })).body.data;
    advance(61_000);
    expect((await ctx.get(`${WS}/login/qr-status?id=${id}`, { token: user.token })).body.data.state).toBe('expired');
    expect((await complete({ phone: ctx.uniquePhone(), qrId: id })).body.key).toBe('pairing_not_found');
  });
});

describe('phone ownership', () => {
  it("does not let user B see, log out, settle or re-bind user A's number", async () => {
    const a = await linkedUser();
    advance(30 * 60_000);
    const b = await ctx.newUser();

    expect((await genCode(b.token, a.phone)).body).toMatchObject({ code: 409, key: 'phone_linked_elsewhere' });
    for (const res of [
      await ctx.get(`${WS}/${a.phone}/is-bound`, { token: b.token }),
      await ctx.get(`${WS}/log/list?phone=${a.phone}`, { token: b.token }),
      await put(`${WS}/logout`, { phone: a.phone }, b.token),
      await settle(b.token, a.phone),
    ]) {
      expect(res.body).toMatchObject({ code: 404, key: 'linked_account_not_found' });
    }
    expect((await page(b.token)).items).toEqual([]);
    const item = (await page(a.token)).items[0];
    expect(item).toMatchObject({ status: 'online', earnings: '0.00' });
    expectSeconds(item.unsettledSeconds, 1800);
    expect(await log(a.token, a.phone)).toHaveLength(1);
  });

  it('links a number to one user only, even when two users hold codes for it', async () => {
    const a = await ctx.newUser();
    const b = await ctx.newUser();
    const digits = ctx.uniquePhone();
    const codeA = (await genCode(a.token, digits)).body.data;
    const codeB = (await genCode(b.token, digits)).body.data;
    expect((await complete({ phone: digits, code: codeA })).body.data.userId).toBe(a.id);
    expect((await complete({ phone: digits, code: codeB })).body).toMatchObject({
      code: 409,
      key: 'phone_linked_elsewhere',
    });
    const qr = (await ctx.post(`${WS}/login/getQRCode`, {}, { token: b.token })).body.data;
    expect((await complete({ phone: digits, qrId: qr.id })).body.key).toBe('phone_linked_elsewhere');
    expect((await ctx.get(`${WS}/${digits}/is-bound`, { token: b.token })).status).toBe(404);
    expect((await page(a.token)).items).toHaveLength(1);
  });
});

describe('status and logout', () => {
  it('counts online time only while Online, and logs every change', async () => {
    const user = await linkedUser();
    advance(30 * 60_000);
    const offline = (await setStatus(user.phone, 'offline')).body.data;
    expect(offline.status).toBe('offline');
    expectSeconds(offline.onlineSeconds, 1800);
    advance(60 * 60_000);
    await setStatus(user.phone, 'banned');
    await setStatus(user.phone, 'online');
    advance(15 * 60_000);
    const item = (await page(user.token)).items[0];
    expect(item.status).toBe('online');
    expectSeconds(item.onlineSeconds, 2700);
    expect(item.unsettledSeconds).toBe(item.onlineSeconds);

    const events = await log(user.token, user.phone);
    expect(events.slice(0, 3)).toMatchObject([
      { kind: 'status_changed', fromStatus: 'banned', toStatus: 'online', actor: 'operator' },
      { kind: 'status_changed', fromStatus: 'offline', toStatus: 'banned', label: 'Status changed' },
      { kind: 'status_changed', fromStatus: 'online', toStatus: 'offline' },
    ]);
    expect((await setStatus(user.phone, 'asleep')).body.key).toBe('linked_status_invalid');
    // Audited by the linked account's id: the number itself is not kept in the audit log.
    const [linked] = await ctx.db.select().from(linkedAccounts).where(eq(linkedAccounts.phone, user.phone));
    const [audits] = await ctx.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.target, `linked-account:${linked?.id}`));
    expect(audits?.n).toBe(4);
  });

  it('shows every status label of the spec in the request language', async () => {
    const user = await linkedUser();
    await setStatus(user.phone, 'no_agent_available');
    const res = await ctx.get(`${WS}/page`, { token: user.token, lang: 'zh_CN' });
    expect(res.body.data.items[0]).toMatchObject({ status: 'no_agent_available', statusLabel: '无可用代理' });
  });

  it('logs the number out: To Login, stays in the list, time stops counting', async () => {
    const user = await linkedUser();
    advance(10 * 60_000);
    const res = await put(`${WS}/logout`, { phone: user.digits }, user.token);
    expect(res.body).toMatchObject({ key: 'linked_logged_out', data: { status: 'to_login' } });
    expectSeconds(res.body.data.onlineSeconds, 600);
    advance(10 * 60_000);
    expect((await page(user.token)).items[0]).toMatchObject({
      status: 'to_login',
      onlineSeconds: res.body.data.onlineSeconds,
    });
    expect((await log(user.token, user.phone))[0]).toMatchObject({ kind: 'logged_out', actor: 'user' });
  });

  it('lists every number for operators, filtered by status and user', async () => {
    const user = await linkedUser();
    await setStatus(user.phone, 'agent_expired');
    const token = await ctx.adminToken();
    const res = await ctx.get(`${API}/admin/ws/list?status=agent_expired&userId=${user.id}`, { token });
    expect(res.body.data.items).toEqual([expect.objectContaining({ phone: user.phone, username: user.username })]);
    expect((await ctx.get(`${API}/admin/ws/list`, { token: user.token })).status).toBe(403);
    const events = await ctx.get(`${API}/admin/ws/log?phone=${user.phone}`, { token });
    expect(events.body.data.items).toHaveLength(2);
  });
});

describe('settlement', () => {
  it('credits online time × the hourly rate once per hour, with no rebate (it is no task reward)', async () => {
    const admin = await ctx.adminToken();
    // ₹3.60 an hour is 0.1 paise a second, so the few real seconds the requests take change no amount.
    const rate = await ctx.control(`${API}/admin/ws/rate/set`, { hourlyRate: '3.60' }, { token: admin });
    expect(rate.body.data).toEqual({ hourlyRate: '3.60', change: null });
    const inviter = await ctx.newUser();
    toNextHour();
    const user = await linkedUser({ inviteCode: inviter.inviteCode });
    const inviterBefore = Number(await ctx.balanceOf(inviter.token));
    const before = Number(await ctx.balanceOf(user.token));
    advance(30 * 60_000);

    const results = await Promise.all([1, 2, 3].map(() => settle(user.token, user.phone)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.body).toMatchObject({ key: 'linked_settled', data: { amount: '1.80', phone: user.phone } });
    expectSeconds(ok[0]?.body.data.seconds, 1800);
    for (const refused of results.filter((r) => r.status !== 200)) {
      expect(refused.body).toMatchObject({ code: 409, key: 'linked_settle_wait', data: { minutes: 30 } });
    }
    expect(Number(await ctx.balanceOf(user.token))).toBeCloseTo(before + 1.8);
    // Linked income owes no rebate: only task rewards do (docs/decisions/rebate-hold.md).
    expect(Number(await ctx.balanceOf(inviter.token))).toBeCloseTo(inviterBefore);
    const [paid] = await ctx.db
      .select({ n: count() })
      .from(postings)
      .where(like(postings.idempotencyKey, `linked-account:%:settle:____-__-__T__`));
    expect(paid?.n).toBe(1);

    const item = (await page(user.token)).items[0];
    expect(item).toMatchObject({ earnings: '1.80' });
    // Only the seconds the requests themselves took since settling (a busy machine: a few).
    expect(item.unsettledSeconds).toBeLessThanOrEqual(10);
    const available = new Date(item.settleAvailableAt).getTime();
    expect(available % HOUR).toBe(0);
    expect(available - new Date(item.lastSettledAt).getTime()).toBeLessThanOrEqual(30 * 60_000);
    const income = (await ctx.get(`${API}/user/balance/list`, { token: user.token })).body.data.items[0];
    expect(income).toMatchObject({ type: 'linked_income', amount: '1.80', ref: { linkedAccountId: item.id } });

    // The next hour pays the time since the last settlement, no more.
    advance(40 * 60_000);
    const second = await settle(user.token, user.phone);
    expect(second.body.data).toMatchObject({ amount: '2.40' });
    expectSeconds(second.body.data.seconds, 2400);
    expect((await log(user.token, user.phone)).slice(0, 2)).toMatchObject([
      { kind: 'settled', amount: '2.40' },
      { kind: 'settled', amount: '1.80' },
    ]);
    expect((await page(user.token)).items[0].earnings).toBe('4.20');
    await ctx.post(`${API}/admin/ws/rate/set`, { hourlyRate: 2 }, { token: admin });
  });

  it('refuses when there is no online time to pay', async () => {
    const user = await linkedUser();
    await setStatus(user.phone, 'offline');
    advance(2 * HOUR);
    expect((await settle(user.token, user.phone)).body).toMatchObject({ code: 409, key: 'linked_nothing_to_settle' });
  });

  it('keeps unpaid time while the rate is 0 and pays it at the rate of the settlement', async () => {
    const admin = await ctx.adminToken();
    await ctx.post(`${API}/admin/ws/rate/set`, { hourlyRate: 0 }, { token: admin });
    const user = await linkedUser();
    advance(HOUR);
    expect((await settle(user.token, user.phone)).body.key).toBe('linked_nothing_to_settle');
    await ctx.control(`${API}/admin/ws/rate/set`, { hourlyRate: '3.60' }, { token: admin });
    const paid = await settle(user.token, user.phone);
    expect(paid.body.data.amount).toBe('3.60');
    expectSeconds(paid.body.data.seconds, 3600);
    await ctx.post(`${API}/admin/ws/rate/set`, { hourlyRate: 2 }, { token: admin });
  });

  it('validates the hourly rate and lets only operators set it', async () => {
    const admin = await ctx.adminToken();
    for (const hourlyRate of [-1, '10000.01', '1.234', 'abc']) {
      const res = await ctx.post(`${API}/admin/ws/rate/set`, { hourlyRate }, { token: admin });
      expect(res.body).toMatchObject({ code: 400, key: 'linked_rate_range' });
    }
    const user = await ctx.newUser();
    expect((await ctx.post(`${API}/admin/ws/rate/set`, { hourlyRate: 5 }, { token: user.token })).status).toBe(403);
    expect((await ctx.get(`${API}/admin/ws/rate/get`, { token: admin })).body.data).toEqual({ hourlyRate: '2.00' });
  });
});
