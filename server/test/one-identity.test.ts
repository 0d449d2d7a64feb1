import { eq, or } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { otpDeliveries, otpOutbox, users } from '../src/db/schema';
import { smtpClient } from '../src/features/otp/otp.senders';
import { createTestContext, type TestContext } from './helpers';
import { API } from './payout-helpers';

/**
 * One person, one identity (docs/decisions/canonical-identity.md), as an attacker tries it over HTTP:
 * the spellings of one Gmail mailbox, a deleted mailbox under another spelling, and usernames that
 * would make the mail sender write to a second recipient.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ OTP_SENDS_PER_TARGET_PER_HOUR: '4' });
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

/** Sends a code to `typed` and registers with it; the raw answer. */
async function register(typed: string, inviteCode: string, lang?: string) {
  const sent = await ctx.post(`${API}/common/otp/send`, { target: typed, type: 1 });
  if (sent.status !== 200) return sent;
  const code = await ctx.lastCode(typed.toLowerCase());
  return ctx.post(
    `${API}/common/user/register`,
    { username: typed, password: 'secret123', password2: 'secret123', verifyCode: code, inviteCode },
    { lang },
  );
}

async function registerTask(token: string) {
  const list = await ctx.get(`${API}/user/task/list`, { token });
  const items = list.body.data.sections.flatMap((s: { items: { id: number; state: string }[] }) => s.items);
  return items.find((t: { id: number }) => t.id === 2) as { state: string; progress: number; targetCount: number };
}

const invitees = async (token: string) => (await ctx.get(`${API}/user/invite/list`, { token })).body.data.totals;

describe('one mailbox, one identity', () => {
  it('takes four spellings of one Gmail mailbox as one identity: one account, one friend', async () => {
    const admin = await ctx.adminToken();
    expect(
      (await ctx.control(`${API}/admin/settings/set`, { risk: { qualifiedInvite: 'registration' } }, { token: admin }))
        .status,
    ).toBe(200);
    const inviter = await ctx.newUser();
    const first = await register('x.sam@gmail.com', inviter.inviteCode);
    expect(first.status).toBe(200);
    for (const other of ['xsam@gmail.com', 'x.sam+1@gmail.com', 'x.s.a.m@googlemail.com']) {
      const again = await register(other, inviter.inviteCode, 'hi-IN');
      expect(again.body, other).toMatchObject({ key: 'username_taken' });
      expect(again.body.message).toBe('यह फ़ोन या ई-मेल पहले से पंजीकृत है');
    }
    expect(await invitees(inviter.token)).toMatchObject({ count: 1, qualified: 1 });
    // The user logs in with the address as typed, and only with it.
    const login = (username: string) => ctx.post(`${API}/common/user/login`, { username, password: 'secret123' });
    expect((await login('x.sam@gmail.com')).status).toBe(200);
    expect((await login('xsam@gmail.com')).body.key).toBe('incorrect_username_or_password');
    const [row] = await ctx.db.select().from(users).where(eq(users.username, 'x.sam@gmail.com'));
    expect(row?.canonicalIdentity).toBe('xsam@gmail.com');
  });

  it('knows a deleted mailbox under another spelling: a returning identity, no friend, no first-time reward', async () => {
    const inviter = await ctx.newUser();
    const gone = await register('ujbqu.del@gmail.com', inviter.inviteCode);
    expect(gone.status).toBe(200);
    const token = gone.body.data.token as string;
    expect(await ctx.balanceOf(token)).toBe('5.00');
    expect((await ctx.post(`${API}/user/account/delete`, { password: 'secret123' }, { token })).status).toBe(200);

    const back = await register('ujbqudel@gmail.com', inviter.inviteCode);
    expect(back.status).toBe(200);
    const backToken = back.body.data.token as string;
    const [row] = await ctx.db.select().from(users).where(eq(users.username, 'ujbqudel@gmail.com'));
    expect(row?.returningIdentity).toBe(true);
    expect(await ctx.balanceOf(backToken)).toBe('0.00');
    // The inviter's second friend is the same person: counted once.
    expect(await invitees(inviter.token)).toMatchObject({ count: 2, qualified: 1 });
    // "Register an account" was received by this identity already: completed, not "Ready to claim".
    expect(await registerTask(backToken)).toMatchObject({ state: 'completed' });
    const claim = await ctx.post(`${API}/user/task/finish`, { taskId: 2 }, { token: backToken });
    expect(claim.body.key).toBe('task_already_claimed');
  });

  it('shows the register task of a phone registered again after deletion as completed', async () => {
    const first = await ctx.newUser();
    expect(await registerTask(first.token)).toMatchObject({ state: 'completed' });
    expect(
      (await ctx.post(`${API}/user/account/delete`, { password: 'secret123' }, { token: first.token })).status,
    ).toBe(200);
    const again = await ctx.registerUser({ username: first.username.slice(2) });
    expect(await registerTask(again.token)).toMatchObject({ state: 'completed' });
    expect(await ctx.balanceOf(again.token)).toBe('0.00');
  });

  it('counts the hourly code limit per mailbox, not per +tag spelling', async () => {
    const spellings = [
      'limit.me+1@gmail.com',
      'limitme+2@googlemail.com',
      'l.i.m.i.t.m.e@gmail.com',
      'limitme+4@gmail.com',
      'LimitMe+5@gmail.com',
    ];
    const answers = [];
    for (const target of spellings)
      answers.push((await ctx.post(`${API}/common/otp/send`, { target, type: 1 })).body.key);
    expect(answers).toEqual(['code_sent', 'code_sent', 'code_sent', 'code_sent', 'otp_rate_limited']);
  });
});

describe('a username is one plain mailbox', () => {
  const ATTACKS = [
    'abkoz<mallory@evil.co>',
    'x,attacker@evil.co',
    '"x y"@evil.co',
    'Sam <sam@evil.co>',
    'x@[10.0.0.1]',
  ];

  it('refuses display names, lists, quotes and address literals with a translated message, and sends nothing', async () => {
    const inviter = await ctx.newUser();
    for (const target of ATTACKS) {
      const sent = await ctx.post(`${API}/common/otp/send`, { target, type: 1 }, { lang: 'zh-CN' });
      expect(sent.status, target).toBe(400);
      expect(sent.body.data.fields?.target ?? sent.body.key, target).toMatch(
        /email_plain_address_only|enter_valid_email/,
      );
      const registered = await ctx.post(
        `${API}/common/user/register`,
        {
          username: target,
          password: 'secret123',
          password2: 'secret123',
          verifyCode: '123456',
          inviteCode: inviter.inviteCode,
        },
        { lang: 'hi-IN' },
      );
      expect(registered.status, target).toBe(400);
    }
    const display = await ctx.post(
      `${API}/common/otp/send`,
      { target: 'abkoz<mallory@evil.co>', type: 1 },
      { lang: 'zh-CN' },
    );
    expect(display.body.message).toBe('只填写电子邮箱地址，例如 name@example.com：不要姓名、空格、逗号、引号或尖括号');
    const list = await ctx.post(`${API}/common/otp/send`, { target: 'x,attacker@evil.co', type: 1 }, { lang: 'hi-IN' });
    expect(list.body.message).toBe(
      'केवल ई-मेल पता लिखें, जैसे name@example.com: कोई नाम, स्पेस, कॉमा, उद्धरण चिह्न या कोण कोष्ठक नहीं',
    );
    const sentTo = await ctx.db
      .select()
      .from(otpOutbox)
      .where(or(eq(otpOutbox.target, 'abkoz<mallory@evil.co>'), eq(otpOutbox.target, 'x,attacker@evil.co')));
    expect(sentTo).toEqual([]);
    const delivered = await ctx.db.select({ target: otpDeliveries.target }).from(otpDeliveries);
    expect(delivered.filter((d) => d.target.includes('evil.co'))).toEqual([]);
  });

  it('the SMTP sender itself refuses anything but one plain mailbox, before it connects', async () => {
    // Port 9 on loopback: nothing listens; a connection attempt would answer `unavailable`, not this.
    const smtp = smtpClient('smtp://127.0.0.1:9', 'Kamai <codes@kamai.local>', 1000);
    for (const target of ATTACKS) {
      await expect(
        smtp.send(
          { channel: 'email', kind: 'code', target, locale: 'en_US', code: '123456' },
          new AbortController().signal,
        ),
      ).rejects.toMatchObject({ failure: 'invalid_target' });
    }
  });
});
