import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notices, taskProofs } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API } from './payout-helpers';

/**
 * Text that cannot lie (docs/decisions/text-that-cannot-lie.md): what users and operators write is
 * stored only without bidirectional controls, and a notice's image is one of this app's own uploads.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

const HI_BIDI = 'इस पाठ में छिपे दिशा-चिह्न हैं जो इसे पढ़ने का क्रम बदल देते हैं; उन्हें हटाएँ';
const OWN_IMAGE = `/uploads/${'ab'.repeat(32)}.png`;

async function proofTask() {
  const res = await ctx.post(
    `${API}/admin/task/add`,
    {
      section: 'hot',
      reward: '20',
      titles: { en_US: 'Share Kamai on WhatsApp status' },
      verification: { kind: 'proof', proof: 'link' },
    },
    { token: await ctx.adminToken() },
  );
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

describe('bidirectional controls', () => {
  it('refuses a proof link that shows another address, with a translated message, and stores nothing', async () => {
    const taskId = await proofTask();
    const user = await ctx.newUser();
    const res = await ctx.post(
      `${API}/user/task/proof/submit`,
      { taskId, link: 'https://attacker-site.in/\u202Eni.oc.iamak.www//:sptth' },
      { token: user.token, lang: 'hi-IN' },
    );
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({ link: 'text_bidi_control' });
    expect(res.body.message).toBe(HI_BIDI);
    expect(await ctx.db.select().from(taskProofs).where(eq(taskProofs.userId, user.id))).toEqual([]);
    const clean = await ctx.post(
      `${API}/user/task/proof/submit`,
      { taskId, link: 'https://attacker-site.in/status/1' },
      { token: user.token },
    );
    expect(clean.status).toBe(200);
  });

  it('refuses a notice whose amount reads backwards, in any field or translation', async () => {
    const token = await ctx.adminToken();
    const before = (await ctx.db.select().from(notices)).length;
    for (const [name, body] of [
      ['title', { title: '₹\u202E00.0001', body: 'Bonus' }],
      ['body', { title: 'Bonus', body: 'You won \u2067₹1000\u2069' }],
      ['titles', { title: 'Bonus', body: 'b', titles: { hi_IN: 'बोनस \u202B₹1' } }],
      ['bodies', { title: 'Bonus', body: 'b', bodies: { zh_CN: '奖金\u202D' } }],
    ] as const) {
      const res = await ctx.post(`${API}/admin/notice/add`, body, { token, lang: 'zh-CN' });
      expect(res.status, name).toBe(400);
      expect(res.body.message, name).toBe('此文本包含会改变阅读顺序的隐藏方向字符，请删除它们');
      expect(JSON.stringify(res.body.data.fields), name).toContain('text_bidi_control');
    }
    expect((await ctx.db.select().from(notices)).length).toBe(before);
  });

  it('refuses them in task texts too', async () => {
    const res = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: '20',
        titles: { en_US: 'Earn \u202E05₹' },
        verification: { kind: 'proof', proof: 'link' },
      },
      { token: await ctx.adminToken() },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.data.fields)).toContain('text_bidi_control');
  });
});

describe('notice images', () => {
  it('are only this app’s own uploads', async () => {
    const token = await ctx.adminToken();
    for (const imageUrl of [
      'http://kamai.co.in/banner.png',
      'https://evil.example/pixel.png',
      '//evil.example/pixel.png',
      '/uploads/../../etc/passwd',
      `/uploads/${'ab'.repeat(32)}.mp4`,
    ]) {
      const res = await ctx.post(
        `${API}/admin/notice/add`,
        { title: 't', body: 'b', imageUrl },
        { token, lang: 'hi-IN' },
      );
      expect(res.status, imageUrl).toBe(400);
      expect(res.body.data.fields, imageUrl).toEqual({ imageUrl: 'notice_image_own_uploads' });
      expect(res.body.message, imageUrl).toBe(
        'यहाँ अपलोड की गई छवि का उपयोग करें (छवि अपलोड करें); दूसरी साइटों के लिंक ऐप में नहीं दिखते',
      );
    }
    const own = await ctx.post(`${API}/admin/notice/add`, { title: 't', body: 'b', imageUrl: OWN_IMAGE }, { token });
    expect(own.status).toBe(200);
    const edit = await ctx.post(
      `${API}/admin/notice/edit`,
      { id: own.body.data.id, imageUrl: 'https://evil.example/pixel.png' },
      { token },
    );
    expect(edit.body.data.fields).toEqual({ imageUrl: 'notice_image_own_uploads' });
  });
});
