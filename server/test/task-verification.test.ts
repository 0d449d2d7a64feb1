import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASK_PROOF_UPLOADS_PER_HOUR } from '@kamai/contract';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, notifications, postings, taskProofs } from '../src/db/schema';
import { post } from '../src/features/wallet';
import { createTestContext, type TestContext } from './helpers';
import { png, uploadFile } from './upload-helpers';

const API = '/go_user/api/v1';
const WS = '/obj/ws/account';
const SUBMIT = `${API}/user/task/proof/submit`;
const REVIEW = `${API}/admin/task/proof/review`;
let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-proofs-'));
  ctx = await createTestContext({ DATA_DIR: dataDir });
  adminId = (await ctx.get(`${API}/user/user/detail`, { token: await ctx.adminToken() })).body.data.id;
});
afterEach(async () => {
  expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Item = {
  id: number;
  state: string;
  progress: number;
  targetCount: number;
  verification: { kind: string };
  proof: { state: string; reason: string | null } | null;
};

async function task(token: string, id: number) {
  const res = await ctx.get(`${API}/user/task/list`, { token });
  expect(res.status).toBe(200);
  return (res.body.data.sections as { items: Item[] }[]).flatMap((s) => s.items).find((i) => i.id === id);
}

async function addTask(verification: unknown, extra: Record<string, unknown> = {}) {
  const res = await ctx.post(
    `${API}/admin/task/add`,
    { section: 'hot', reward: '20', titles: { en_US: 'Share Kamai on WhatsApp status' }, verification, ...extra },
    { token: await ctx.adminToken() },
  );
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

const finish = (token: string, taskId: number) => ctx.post(`${API}/user/task/finish`, { taskId }, { token });

const uploadScreenshot = (token: string, content: Buffer, filename = 'status.png', type = 'image/png') =>
  uploadFile(ctx, `${API}/user/task/proof/upload`, token, content, filename, type);

let adminId = 0;
async function review(id: number, action: 'approve' | 'reject', reason = '', token?: string) {
  return ctx.post(REVIEW, { id, action, reason }, { token: token ?? (await ctx.adminToken()) });
}

async function rewardPostings(taskId: number, userId: number) {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(postings)
    .where(eq(postings.idempotencyKey, `task:${taskId}:user:${userId}`));
  return row?.n ?? 0;
}

describe('every operator task has a verification kind; none pays on a click', () => {
  it('refuses a task without one, and shows the system tasks as automatic', async () => {
    const admin = await ctx.adminToken();
    const none = await ctx.post(
      `${API}/admin/task/add`,
      { section: 'hot', reward: 1, titles: { en_US: 'Free money' } },
      { token: admin },
    );
    expect(none).toMatchObject({
      status: 400,
      body: { data: { fields: { verification: 'task_verification_required' } } },
    });
    const badCondition = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: 1,
        titles: { en_US: 'x' },
        verification: { kind: 'automatic', condition: { type: 'register' } },
      },
      { token: admin },
    );
    expect(badCondition.status).toBe(400);
    const list = await ctx.get(`${API}/admin/task/list`, { token: admin });
    const byId = new Map(list.body.data.items.map((t: { id: number }) => [t.id, t]));
    expect(byId.get(2)).toMatchObject({ verification: { kind: 'automatic', condition: { type: 'register' } } });
    expect(byId.get(3)).toMatchObject({ verification: { kind: 'automatic', condition: { type: 'survey' } } });
    expect(byId.get(9)).toMatchObject({
      verification: { kind: 'automatic', condition: { type: 'invites', count: 3, qualified: false } },
    });
    expect(byId.get(6)).toMatchObject({
      verification: { kind: 'automatic', condition: { type: 'withdrawals', count: 1, paid: true } },
    });
    // A system task's verification is fixed.
    const edit = await ctx.post(
      `${API}/admin/task/edit`,
      { id: 3, verification: { kind: 'proof', proof: 'link' } },
      { token: admin },
    );
    expect(edit.body.key).toBe('system_task_locked');
  });

  it('a proof task is never claimable: claim before approval is refused and pays nothing', async () => {
    const id = await addTask({ kind: 'proof', proof: 'either' });
    const user = await ctx.newUser();
    expect(await task(user.token, id)).toMatchObject({
      state: 'incomplete',
      verification: { kind: 'proof', proof: 'either' },
      proof: null,
    });
    expect(await finish(user.token, id)).toMatchObject({ status: 409, body: { key: 'task_proof_required' } });
    await ctx.post(SUBMIT, { taskId: id, link: 'https://wa.me/status/123' }, { token: user.token });
    expect(await task(user.token, id)).toMatchObject({ state: 'review', proof: { state: 'pending' } });
    const claims = await Promise.all(Array.from({ length: 5 }, () => finish(user.token, id)));
    for (const claim of claims) expect(claim).toMatchObject({ status: 409, body: { key: 'task_under_review' } });
    expect(await rewardPostings(id, user.id)).toBe(0);
    expect(await ctx.balanceOf(user.token)).toBe('5.00');
  });
});

describe('proof: submit, review in the console, credit on approval only', () => {
  it('uploads a screenshot, shows Under review, and credits once on approval, audited and notified', async () => {
    const id = await addTask({ kind: 'proof', proof: 'screenshot' });
    const user = await ctx.newUser();
    // This task needs a screenshot: a link alone is refused.
    const linkOnly = await ctx.post(SUBMIT, { taskId: id, link: 'https://example.com/x' }, { token: user.token });
    expect(linkOnly.body.key).toBe('task_proof_screenshot_required');
    // A video is not a screenshot; a URL that was never uploaded is refused.
    const video = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(40, 1)]);
    expect((await uploadScreenshot(user.token, video, 'x.mp4', 'video/mp4')).body.key).toBe('upload_type_unsupported');
    // A PNG signature over garbage has no size to read: a 400 the route documents, never a 500.
    const garbage = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(68)]);
    expect(await uploadScreenshot(user.token, garbage)).toMatchObject({
      status: 400,
      body: { key: 'upload_image_unreadable' },
    });
    const ghost = await ctx.post(
      SUBMIT,
      { taskId: id, imageUrl: `/uploads/${'a'.repeat(64)}.png` },
      { token: user.token },
    );
    expect(ghost.body.key).toBe('task_proof_image_invalid');
    expect((await ctx.post(SUBMIT, { taskId: id, imageUrl: '/etc/passwd' }, { token: user.token })).status).toBe(400);

    const uploaded = await uploadScreenshot(user.token, png(1));
    expect(uploaded.status).toBe(200);
    const submitted = await ctx.post(
      SUBMIT,
      { taskId: id, imageUrl: uploaded.body.data.url },
      { token: user.token, lang: 'mr_IN' },
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.message).toBe('पुरावा सबमिट झाला, आता त्याचे पुनरावलोकन होत आहे');
    expect(submitted.body.data).toMatchObject({ state: 'pending', imageUrl: uploaded.body.data.url, link: null });
    // One open proof at a time.
    const again = await ctx.post(SUBMIT, { taskId: id, imageUrl: uploaded.body.data.url }, { token: user.token });
    expect(again.body.key).toBe('task_under_review');

    const admin = await ctx.adminToken();
    const queue = await ctx.get(`${API}/admin/task/proof/list?state=pending&taskId=${id}`, { token: admin });
    expect(queue.body.data.items).toEqual([
      expect.objectContaining({
        id: submitted.body.data.id,
        taskId: id,
        userId: user.id,
        username: user.username,
        reward: '20.00',
        taskTitle: 'Share Kamai on WhatsApp status',
        state: 'pending',
      }),
    ]);
    expect((await ctx.get(`${API}/admin/task/detail?id=${id}`, { token: admin })).body.data.pendingProofs).toBe(1);

    const approved = await review(submitted.body.data.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ state: 'approved', reviewerId: adminId });
    expect(await ctx.balanceOf(user.token)).toBe('25.00');
    expect(await task(user.token, id)).toMatchObject({ state: 'completed', proof: { state: 'approved' } });
    expect(await rewardPostings(id, user.id)).toBe(1);
    expect((await finish(user.token, id)).body.key).toBe('task_already_claimed');

    const notes = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.find((n) => n.kind === 'task_proof_approved')?.params).toMatchObject({ amount: '20.00' });
    const [audit] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `task_proof:${submitted.body.data.id}`));
    expect(audit).toMatchObject({ action: 'task_proof.approve', actorId: adminId, after: { state: 'approved' } });
  });

  it('rejects with a reason the user sees; rejected proof can be resubmitted and then approved', async () => {
    const id = await addTask({ kind: 'proof', proof: 'link' });
    const user = await ctx.newUser();
    expect(
      (await ctx.post(SUBMIT, { taskId: id, link: 'not a link' }, { token: user.token })).body.data.fields,
    ).toEqual({
      link: 'task_proof_link_invalid',
    });
    expect((await ctx.post(SUBMIT, { taskId: id }, { token: user.token })).body.key).toBe('task_proof_missing');
    const first = await ctx.post(SUBMIT, { taskId: id, link: 'https://wa.me/s/1' }, { token: user.token });

    const noReason = await review(first.body.data.id, 'reject');
    expect(noReason.body.data.fields).toEqual({ reason: 'enter_reject_reason' });
    const rejected = await review(first.body.data.id, 'reject', 'The status is not visible');
    expect(rejected.body.data).toMatchObject({ state: 'rejected', reason: 'The status is not visible' });
    expect(await task(user.token, id)).toMatchObject({
      state: 'incomplete',
      proof: { state: 'rejected', reason: 'The status is not visible' },
    });
    expect(await ctx.balanceOf(user.token)).toBe('5.00');
    // A decided proof cannot be decided again.
    expect((await review(first.body.data.id, 'approve')).body.key).toBe('task_proof_state_conflict');

    const second = await ctx.post(SUBMIT, { taskId: id, link: 'https://wa.me/s/2' }, { token: user.token });
    expect(second.status).toBe(200);
    expect(await task(user.token, id)).toMatchObject({ state: 'review', proof: { state: 'pending', reason: null } });
    expect((await review(second.body.data.id, 'approve')).status).toBe(200);
    expect(await ctx.balanceOf(user.token)).toBe('25.00');
    const audits = await ctx.db.select().from(auditLog).where(like(auditLog.target, 'task_proof:%'));
    expect(audits.filter((a) => a.action === 'task_proof.reject')).toHaveLength(1);
  });

  it('approves once out of many parallel approvals (and a reject racing them): one credit, the rest 409', async () => {
    const id = await addTask({ kind: 'proof', proof: 'link' });
    const user = await ctx.newUser();
    const proof = (await ctx.post(SUBMIT, { taskId: id, link: 'https://wa.me/s/3' }, { token: user.token })).body.data;
    const admin = await ctx.adminToken();
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => review(proof.id, 'approve', '', admin)),
      review(proof.id, 'reject', 'too late', admin),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r).toMatchObject({ status: 409, body: { key: 'task_proof_state_conflict' } });
    }
    const approved = ok[0]?.body.data.state === 'approved';
    expect(await rewardPostings(id, user.id)).toBe(approved ? 1 : 0);
    expect(await ctx.balanceOf(user.token)).toBe(approved ? '25.00' : '5.00');
  });

  it('makes one open proof out of parallel submissions', async () => {
    const id = await addTask({ kind: 'proof', proof: 'link' });
    const user = await ctx.newUser();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ctx.post(SUBMIT, { taskId: id, link: `https://wa.me/s/${i}` }, { token: user.token }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.key).toBe('task_under_review');
    const [open] = await ctx.db
      .select({ n: count() })
      .from(taskProofs)
      .where(and(eq(taskProofs.userId, user.id), eq(taskProofs.taskId, id)));
    expect(open?.n).toBe(1);
  });

  it('limits screenshot uploads per user and hour (every stored file stays): the next is 429, others unaffected', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const answers = await Promise.all(
      Array.from({ length: TASK_PROOF_UPLOADS_PER_HOUR + 5 }, (_, i) => uploadScreenshot(user.token, png(100 + i))),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(TASK_PROOF_UPLOADS_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(answers.find((a) => a.status === 429)?.body.key).toBe('too_many_requests');
    expect((await uploadScreenshot(other.token, png(200))).status).toBe(200);
  });

  it('an operator cannot approve their own proof, and a plain user cannot review', async () => {
    const id = await addTask({ kind: 'proof', proof: 'link' });
    const admin = await ctx.adminToken();
    const own = await ctx.post(SUBMIT, { taskId: id, link: 'https://wa.me/s/admin' }, { token: admin });
    expect(own.status).toBe(200);
    expect((await review(own.body.data.id, 'approve')).body.key).toBe('cannot_review_own_proof');
    const user = await ctx.newUser();
    expect((await review(own.body.data.id, 'approve', '', user.token)).status).toBe(403);
    expect((await ctx.get(`${API}/admin/task/proof/list`, { token: user.token })).status).toBe(403);
    // Proof for an automatic task is refused.
    expect((await ctx.post(SUBMIT, { taskId: 3, link: 'https://x.in/a' }, { token: user.token })).body.key).toBe(
      'task_not_proof',
    );
  });
});

describe('automatic conditions, checked from the server’s own records', () => {
  it('income in a period: claimable only once enough was earned', async () => {
    const id = await addTask({ kind: 'automatic', condition: { type: 'income', amount: '50', days: 7 } });
    const user = await ctx.newUser();
    expect(await task(user.token, id)).toMatchObject({ state: 'incomplete', progress: 0, targetCount: 1 });
    expect((await finish(user.token, id)).body.key).toBe('task_condition_unmet');
    await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: 45, remark: 'bonus' },
      { token: await ctx.adminToken() },
    );
    // A manual credit is compensation, not income (docs/decisions/rebate-hold.md): still ₹5 of ₹50.
    expect(await task(user.token, id)).toMatchObject({ state: 'incomplete' });
    // ₹45 of task rewards (posted as the tasks feature posts them) makes ₹50 of income.
    await ctx.db.transaction((tx) =>
      post(tx, {
        type: 'task_reward',
        idempotencyKey: `test:income:${user.id}`,
        ref: { taskId: id },
        entries: [
          { account: { kind: 'platform_rewards' }, amount: -4500n },
          { account: { userId: user.id, kind: 'wallet' }, amount: 4500n },
        ],
      }),
    );
    expect(await task(user.token, id)).toMatchObject({ state: 'claimable' });
    // The operator's remark is an internal note: the user's income record does not show it.
    const records = await ctx.get(`${API}/user/balance/list`, { token: user.token });
    const credit = records.body.data.items.find((item: { type: string }) => item.type === 'manual_credit');
    expect(credit).toMatchObject({ type: 'manual_credit', amount: '45.00' });
    expect(JSON.stringify(credit)).not.toContain('bonus');
    // Eight days later the income is outside the period.
    ctx.advance(8 * 86_400_000);
    try {
      expect(await task(user.token, id)).toMatchObject({ state: 'incomplete' });
    } finally {
      ctx.advance(-8 * 86_400_000);
    }
    expect((await finish(user.token, id)).body.data).toMatchObject({ reward: '20.00' });
  });

  it('friends invited and qualified (linked a number), numbers linked and online', async () => {
    const admin = await ctx.adminToken();
    const invites = await addTask({ kind: 'automatic', condition: { type: 'invites', count: 2, qualified: true } });
    const online = await addTask({ kind: 'automatic', condition: { type: 'linked_accounts', count: 1, online: true } });
    const user = await ctx.newUser();
    const friendA = await ctx.newUser({ inviteCode: user.inviteCode });
    await ctx.newUser({ inviteCode: user.inviteCode });
    expect(await task(user.token, invites)).toMatchObject({ state: 'incomplete', progress: 0, targetCount: 2 });

    const link = async (token: string) => {
      const digits = ctx.uniquePhone();
      expect((await ctx.post(`${WS}/login/genPhoneCode`, { phone: digits }, { token })).status).toBe(200);
      expect((await ctx.post(`${API}/admin/ws/complete`, { phone: digits }, { token: admin })).status).toBe(200);
      return `91${digits}`;
    };
    await link(friendA.token);
    expect(await task(user.token, invites)).toMatchObject({ state: 'incomplete', progress: 1 });
    expect(await task(user.token, online)).toMatchObject({ state: 'incomplete', progress: 0 });
    const phone = await link(user.token);
    expect(await task(user.token, online)).toMatchObject({ state: 'claimable', progress: 1 });
    await ctx.post(`${API}/admin/ws/status`, { phone, status: 'offline' }, { token: admin });
    expect(await task(user.token, online)).toMatchObject({ state: 'incomplete' });
    expect((await finish(user.token, online)).body.key).toBe('task_condition_unmet');
  });
});
