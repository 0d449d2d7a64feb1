import { LOCALES, MESSAGES, type WithdrawalItem } from '@kamai/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushMessageFor } from '../src/features/push/push.service';
import { createTestContext, type TestContext } from './helpers';
import { payee, withdraw } from './payout-helpers';

/** What operators write reaches users in their own language, and internal notes stay internal. */
const API = '/go_user/api/v1';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

type Item = { kind: string; id: number; title: string; body: string };

async function addNotice(body: Record<string, unknown>) {
  const res = await ctx.post(`${API}/admin/notice/add`, body, { token: await ctx.adminToken() });
  expect(res.body).toMatchObject({ code: 200 });
  return res.body.data.id as number;
}
async function noticeIn(token: string, id: number, lang: string) {
  const list = await ctx.get(`${API}/common/notice/list?kind=notice&limit=100`, { token, lang });
  const inList = (list.body.data.items as Item[]).find((i) => i.id === id);
  const detail = await ctx.get(`${API}/common/notice/detail?id=${id}`, { token, lang });
  return { list: inList, detail: detail.body.data as Item };
}

describe('notices in six languages', () => {
  it('shows a reader the notice in their language and English where the operator wrote none', async () => {
    const user = await ctx.newUser();
    const id = await addNotice({
      title: 'Payouts resume on Monday',
      body: 'Withdrawals requested over the weekend are paid on Monday.',
      titles: { hi_IN: 'भुगतान सोमवार से फिर शुरू', gu_IN: '' },
      bodies: { hi_IN: 'सप्ताहांत में माँगी गई निकासी सोमवार को भेजी जाएगी।' },
    });
    const hindi = await noticeIn(user.token, id, 'hi-IN');
    expect(hindi.list).toMatchObject({ title: 'भुगतान सोमवार से फिर शुरू' });
    expect(hindi.detail).toMatchObject({
      title: 'भुगतान सोमवार से फिर शुरू',
      body: 'सप्ताहांत में माँगी गई निकासी सोमवार को भेजी जाएगी।',
    });
    // Gujarati was left blank: English shows, not an empty title.
    const gujarati = await noticeIn(user.token, id, 'gu-IN');
    expect(gujarati.list).toMatchObject({ title: 'Payouts resume on Monday' });
    expect(gujarati.detail.body).toBe('Withdrawals requested over the weekend are paid on Monday.');

    const admin = await ctx.get(`${API}/admin/notice/detail?id=${id}`, { token: await ctx.adminToken() });
    expect(admin.body.data).toMatchObject({
      title: 'Payouts resume on Monday',
      titles: { hi_IN: 'भुगतान सोमवार से फिर शुरू' },
      bodies: { hi_IN: 'सप्ताहांत में माँगी गई निकासी सोमवार को भेजी जाएगी।' },
    });
    expect(admin.body.data.titles).not.toHaveProperty('gu_IN');
  });

  it('keeps translations an edit leaves out and replaces the ones it sends', async () => {
    const user = await ctx.newUser();
    const id = await addNotice({ title: 'Holiday', body: 'Closed', titles: { mr_IN: 'सुट्टी' } });
    const token = await ctx.adminToken();
    const kept = await ctx.post(`${API}/admin/notice/edit`, { id, body: 'Closed today' }, { token });
    expect(kept.body.data).toMatchObject({ body: 'Closed today', titles: { mr_IN: 'सुट्टी' } });
    const changed = await ctx.post(`${API}/admin/notice/edit`, { id, titles: { pa_IN: 'ਛੁੱਟੀ' } }, { token });
    expect(changed.body.data.titles).toEqual({ pa_IN: 'ਛੁੱਟੀ' });
    expect((await noticeIn(user.token, id, 'pa-IN')).detail.title).toBe('ਛੁੱਟੀ');
    expect((await noticeIn(user.token, id, 'mr-IN')).detail.title).toBe('Holiday');
  });

  it('refuses an unknown locale or an over-long translation with the envelope, writing nothing', async () => {
    const token = await ctx.adminToken();
    const unknown = await ctx.post(
      `${API}/admin/notice/add`,
      { title: 'x-unknown-locale', body: 'b', titles: { fr_FR: 'Bonjour' } },
      { token },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ key: 'validation_failed' });
    const long = await ctx.post(
      `${API}/admin/notice/add`,
      { title: 'x-long', body: 'b', titles: { hi_IN: 'अ'.repeat(121) } },
      { token },
    );
    expect(long.status).toBe(400);
    const list = await ctx.get(`${API}/admin/notice/list?limit=100`, { token });
    expect((list.body.data.items as Item[]).map((i) => i.title)).not.toContain('x-unknown-locale');
  });

  it("pushes a notice's title in each subscription's language", () => {
    const content = {
      source: 'notice' as const,
      noticeId: 1,
      title: 'New offer',
      titles: { zh_CN: '新活动' },
      url: '/notices',
      tag: 'notice:1',
    };
    expect(pushMessageFor(content, 'zh_CN').body).toBe('新活动');
    expect(pushMessageFor(content, 'hi_IN').body).toBe('New offer');
  });
});

describe('reject reasons from a translated list', () => {
  it('shows a rejected withdrawal’s preset in the user’s language, with the note, in the list and the notification', async () => {
    const user = await payee(ctx, 300);
    const made = await withdraw(ctx, user.token, { amount: 150 });
    const id = made.body.data.id as number;
    const rejected = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'reject', preset: 'account_mismatch', reason: 'KYC' },
      { token: await ctx.adminToken() },
    );
    expect(rejected.body).toMatchObject({ code: 200 });

    const list = await ctx.get(`${API}/user/withdraw/list?limit=100`, { token: user.token, lang: 'hi-IN' });
    const item = (list.body.data.items as WithdrawalItem[]).find((w) => w.id === id);
    const hindi = MESSAGES.hi_IN.reject_preset_account_mismatch;
    expect(item?.reason).toBe(`${hindi} (KYC)`);
    expect(item?.history.at(-1)?.reason).toBe(`${hindi} (KYC)`);

    const inbox = await ctx.get(`${API}/common/notice/list?kind=notification&limit=100`, {
      token: user.token,
      lang: 'hi-IN',
    });
    const note = (inbox.body.data.items as Item[]).find((i) => i.body.includes(hindi));
    expect(note?.body).not.toContain('account_mismatch');
    expect(note?.body).not.toContain('Payout account name');
    // The console reads the stored form and translates it itself.
    const admin = await ctx.get(`${API}/admin/withdraw/list?userId=${user.id}`, { token: await ctx.adminToken() });
    expect(admin.body.data.items[0].reason).toBe('preset:account_mismatch\nKYC');
  });

  it('needs a preset or a note to reject, and refuses a preset that is not on the list', async () => {
    const user = await payee(ctx, 300);
    const id = (await withdraw(ctx, user.token, { amount: 120 })).body.data.id as number;
    const token = await ctx.adminToken();
    const bare = await ctx.post(`${API}/admin/withdraw/review`, { id, action: 'reject' }, { token });
    expect(bare.body).toMatchObject({ code: 400, key: 'enter_reject_reason' });
    const unknown = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'reject', preset: 'because' },
      { token },
    );
    expect(unknown.body).toMatchObject({ code: 400, key: 'validation_failed' });
    const presetOnly = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'reject', preset: 'duplicate' },
      { token },
    );
    expect(presetOnly.body).toMatchObject({ code: 200 });
    const list = await ctx.get(`${API}/user/withdraw/list?limit=100`, { token: user.token, lang: 'zh-CN' });
    expect((list.body.data.items as WithdrawalItem[]).find((w) => w.id === id)?.reason).toBe(
      MESSAGES.zh_CN.reject_preset_duplicate,
    );
  });
});

describe('manual credit: internal note and user-facing text', () => {
  type Posting = { type: string; ref: Record<string, unknown> };
  async function credit(userId: number, body: Record<string, unknown>) {
    const res = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId, amount: '25', ...body },
      { token: await ctx.adminToken() },
    );
    expect(res.body).toMatchObject({ code: 200 });
  }
  const ownCredits = async (token: string) => {
    const res = await ctx.get(`${API}/user/balance/list?limit=100`, { token });
    return (res.body.data.items as Posting[]).filter((p) => p.type === 'manual_credit');
  };

  it('never shows the internal note to the user; shows the user text when given', async () => {
    const user = await ctx.newUser();
    await credit(user.id, { remark: 'Test credit for QA' });
    await credit(user.id, { remark: 'Ticket 4411 goodwill', userText: 'Sorry for the delay' });
    const refs = (await ownCredits(user.token)).map((p) => p.ref);
    expect(JSON.stringify(refs)).not.toContain('Test credit for QA');
    expect(JSON.stringify(refs)).not.toContain('Ticket 4411');
    expect(refs).toContainEqual({ remark: 'Sorry for the delay' });
    expect(refs).toContainEqual({});

    const staff = await ctx.get(`${API}/admin/balance/list?userId=${user.id}&type=manual_credit`, {
      token: await ctx.adminToken(),
    });
    expect(staff.body.data.items.map((p: Posting) => p.ref)).toContainEqual({
      note: 'Ticket 4411 goodwill',
      remark: 'Sorry for the delay',
    });
  });

  it("a chosen text reaches the user in their own language, each of the six, the operator's words after it", async () => {
    const user = await ctx.newUser();
    await credit(user.id, { remark: 'Ticket 5120', userPreset: 'withdrawal_delay' });
    await credit(user.id, { remark: 'Ticket 5121', userPreset: 'fee_refund', userText: 'UTR 4471' });
    for (const locale of LOCALES) {
      const lang = locale.replace('_', '-');
      const res = await ctx.get(`${API}/user/balance/list?limit=100`, { token: user.token, lang });
      const remarks = (res.body.data.items as Posting[])
        .filter((p) => p.type === 'manual_credit')
        .map((p) => p.ref.remark);
      expect(remarks, locale).toEqual([
        `${MESSAGES[locale].credit_preset_fee_refund} (UTR 4471)`,
        MESSAGES[locale].credit_preset_withdrawal_delay,
      ]);
      if (locale !== 'en_US') expect(remarks[1], locale).not.toBe(MESSAGES.en_US.credit_preset_withdrawal_delay);
    }
    const staff = await ctx.get(`${API}/admin/balance/list?userId=${user.id}&type=manual_credit`, {
      token: await ctx.adminToken(),
    });
    expect(staff.body.data.items.map((p: Posting) => p.ref)).toContainEqual({
      note: 'Ticket 5121',
      remark: 'preset:fee_refund\nUTR 4471',
    });
  });

  it('a credit waiting for a second admin keeps the chosen text, and the user reads it translated once posted', async () => {
    const user = await ctx.newUser();
    const held = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: '10000.01', remark: 'Ticket 5122', userPreset: 'complaint_resolution' },
      { token: await ctx.adminToken() },
    );
    const id = held.body.data.creditRequest.id as number;
    const second = await ctx.staff('admin');
    const approved = await ctx.post(`${API}/admin/revenue/review`, { id, action: 'approve' }, { token: second.token });
    expect(approved.status).toBe(200);
    const res = await ctx.get(`${API}/user/balance/list?limit=100`, { token: user.token, lang: 'pa-IN' });
    expect((res.body.data.items as Posting[]).find((p) => p.type === 'manual_credit')?.ref.remark).toBe(
      MESSAGES.pa_IN.credit_preset_complaint_resolution,
    );
  });

  it('refuses a text that is not one of the presets', async () => {
    const user = await ctx.newUser();
    const res = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: '5', remark: 'x', userPreset: 'anything' },
      { token: await ctx.adminToken() },
    );
    expect(res).toMatchObject({ status: 400, body: { key: 'validation_failed' } });
  });
});

describe('Help, Terms and Privacy on a fresh install', () => {
  const page = async (slug: string, lang: string) =>
    (await ctx.get(`${API}/common/page/detail?slug=${slug}`, { lang })).body.data as {
      title: string;
      body: string;
      faq: { question: string; answer: string }[];
      grievance: { name: string; email: string; phone: string; address: string } | null;
      updatedAt: string | null;
    };

  it('has a real page in each of the six languages before an operator writes one', async () => {
    const titles = new Set<string>();
    for (const lang of ['en-US', 'gu-IN', 'hi-IN', 'mr-IN', 'pa-IN', 'zh-CN']) {
      const [help, terms, privacy] = [await page('help', lang), await page('terms', lang), await page('privacy', lang)];
      expect(help.faq.length).toBeGreaterThanOrEqual(5);
      expect(terms.body.split('\n\n').length).toBeGreaterThanOrEqual(8);
      expect(privacy.body.length).toBeGreaterThan(600);
      // The policy names what is kept after deletion and the rule the Grievance Officer comes from.
      expect(privacy.body).toContain('3(2)');
      expect(privacy.body).toContain('8');
      expect(privacy.updatedAt).toBeNull();
      titles.add(privacy.title);
    }
    expect(titles.size).toBe(6);
    const hindi = await page('privacy', 'hi-IN');
    expect(hindi.title).toBe('गोपनीयता नीति');
    expect(hindi.body).not.toMatch(/\bwe\b|\bthe\b/i);
  });

  it('publishes the Grievance Officer on Help and Privacy once name, e-mail and address are set, and refuses a bad e-mail', async () => {
    const token = await ctx.adminToken();
    expect((await page('privacy', 'pa-IN')).grievance).toBeNull();
    const current = await ctx.get(`${API}/admin/page/get?slug=privacy`, { token });
    expect(current.body.data.texts.zh_CN.title).toBe('隐私政策');
    expect(current.body.data.grievance).toEqual({ name: '', email: '', phone: '', address: '' });
    const save = (grievance: Record<string, string>) =>
      ctx.post(`${API}/admin/page/set`, { slug: 'privacy', texts: current.body.data.texts, grievance }, { token });
    const bad = await save({ name: 'A. Rao', email: 'not-an-email' });
    expect(bad.body).toMatchObject({ code: 400, key: 'enter_valid_email' });
    // Name and e-mail without an address: saved, but not published yet.
    expect((await save({ name: 'Anita Rao', email: 'grievance@kamai.in' })).body).toMatchObject({ code: 200 });
    expect((await page('privacy', 'pa-IN')).grievance).toBeNull();
    const officer = {
      name: 'Anita Rao',
      email: 'grievance@kamai.in',
      phone: '+91 98100 00000',
      address: '4th floor, 12 MG Road, Bengaluru 560001',
    };
    expect((await save(officer)).body).toMatchObject({ code: 200 });
    const punjabi = await page('privacy', 'pa-IN');
    expect(punjabi.grievance).toEqual(officer);
    expect(punjabi.title).toBe('ਪਰਦੇਦਾਰੀ ਨੀਤੀ');
    expect((await page('help', 'pa-IN')).grievance).toEqual(officer);
    expect((await page('terms', 'pa-IN')).grievance).toBeNull();
  });
});
