import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminWithdrawalItem, PayoutMismatchItem } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientSignals, otpDeliveries, pushSubscriptions, taskProofs, users } from '../src/db/schema';
import { hashPassword } from '../src/platform/password';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, callbackUrl, fund, nowSeconds, payee, review, withdraw } from './payout-helpers';
import { png, uploadFile } from './upload-helpers';

/**
 * Account lifecycle and abuse (deletion that is final, friends that count once, proofs that are
 * yours): one test per defect found by the attack pass, each through the real app and database.
 */
const SECRET = 'lifecycle-test-secret-0123456789';
let ctx: TestContext;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kamai-lifecycle-'));
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
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const deleteAccount = (token: string, password = 'secret123') =>
  ctx.post(`${API}/user/account/delete`, { password }, { token });

const upload = (url: string, token: string, content: Buffer) => uploadFile(ctx, url, token, content);
const uploadProof = (token: string, content: Buffer) => upload(`${API}/user/task/proof/upload`, token, content);

async function proofTask() {
  const res = await ctx.post(
    `${API}/admin/task/add`,
    {
      section: 'hot',
      reward: '20',
      titles: { en_US: 'Share Kamai on WhatsApp status' },
      verification: { kind: 'proof', proof: 'screenshot' },
    },
    { token: await ctx.adminToken() },
  );
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

/** The GET of an upload, as a browser's <img> asks for it: no Authorization header. */
const fetchFile = async (url: string) => (await ctx.app.inject({ method: 'GET', url })).statusCode;

describe('defect 1: a deleted account stays deleted', () => {
  it('refuses every operator route that would revive, credit, reset, promote or unfreeze it, and login', {
    timeout: 120_000,
  }, async () => {
    const admin = await ctx.adminToken();
    const second = await ctx.staff('admin');
    const user = await ctx.newUser();
    // A credit above the four-eyes threshold waits for a second admin; it is decided after the deletion.
    const waiting = await ctx.post(
      `${API}/admin/revenue/add`,
      { userId: user.id, amount: '20000', remark: 'bonus' },
      { token: admin },
    );
    expect(waiting.body.data.creditRequest.state).toBe('pending');
    expect((await deleteAccount(user.token)).status).toBe(200);

    const deleted = { status: 409, body: { key: 'account_deleted_final' } };
    expect(
      await ctx.post(`${API}/admin/user/freeze`, { userId: user.id, frozen: false }, { token: admin }),
    ).toMatchObject(deleted);
    expect(
      await ctx.control(`${API}/admin/user/role`, { userId: user.id, role: 'admin' }, { token: admin }),
    ).toMatchObject(deleted);
    expect(
      await ctx.post(
        `${API}/admin/user/resetpass`,
        { userId: user.id, password: 'Fresh-start-2026' },
        { token: admin },
      ),
    ).toMatchObject(deleted);
    expect(
      await ctx.post(`${API}/admin/revenue/add`, { userId: user.id, amount: '50', remark: 'x' }, { token: admin }),
    ).toMatchObject(deleted);
    expect(
      await ctx.post(
        `${API}/admin/revenue/review`,
        { id: waiting.body.data.creditRequest.id, action: 'approve', reason: '' },
        { token: second.token },
      ),
    ).toMatchObject(deleted);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ frozen: true, role: 'user', passwordHash: '!deleted' });

    // Even with a password on the row (as the old revival left it), the deleted account does not log in.
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword('Fresh-start-2026'), frozen: false })
      .where(eq(users.id, user.id));
    const login = await ctx.post(`${API}/common/user/login`, {
      username: `deleted-${user.id}`,
      password: 'Fresh-start-2026',
    });
    expect(login).toMatchObject({ status: 400, body: { key: 'incorrect_username_or_password' } });
  });
});

describe('defect 2: one phone counts as a friend once, ever', () => {
  it('a re-registration after deletion is no new qualified invitee and earns no first-time reward', async () => {
    const admin = await ctx.adminToken();
    expect(
      (await ctx.control(`${API}/admin/settings/set`, { risk: { qualifiedInvite: 'registration' } }, { token: admin }))
        .status,
    ).toBe(200);
    const inviter = await ctx.newUser();
    const phone = ctx.uniquePhone();
    const count = async () =>
      (await ctx.get(`${API}/user/invite/list?limit=10`, { token: inviter.token })).body.data.totals
        .qualified as number;

    const first = await ctx.newUser({ username: phone, inviteCode: inviter.inviteCode });
    expect(await ctx.balanceOf(first.token)).toBe('5.00');
    expect(await count()).toBe(1);
    const inviterAfterFirst = await ctx.balanceOf(inviter.token);
    expect((await deleteAccount(first.token)).status).toBe(200);

    for (let round = 0; round < 2; round++) {
      const again = await ctx.newUser({ username: phone, inviteCode: inviter.inviteCode });
      // The new account works, but the registration reward was paid to this phone once already.
      expect(await ctx.balanceOf(again.token)).toBe('0.00');
      expect(await count()).toBe(1);
      expect(await ctx.balanceOf(inviter.token)).toBe(inviterAfterFirst);
      const login = await ctx.post(`${API}/common/user/login`, { username: phone, password: 'secret123' });
      expect(login.status).toBe(200);
      expect((await deleteAccount(again.token)).status).toBe(200);
    }
    await ctx.control(`${API}/admin/settings/set`, { risk: { qualifiedInvite: 'first_task' } }, { token: admin });
  });
});

describe('defect 3: no operator resolves a payout mismatch of his own withdrawal', () => {
  it('refuses recover and dismiss on the operator own withdrawal, like review', async () => {
    const operator = await payee(ctx, 1000);
    const { id } = (await withdraw(ctx, operator.token, { amount: 250 })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const callback = (status: 'success' | 'failed') =>
      ctx.getText(
        callbackUrl(
          {
            orderNo: String(id),
            status,
            amount: '250.00',
            ts: nowSeconds(ctx),
            ...(status === 'success' ? { reference: '402912345678' } : { reason: 'Account closed' }),
          },
          SECRET,
        ),
      );
    await callback('failed');
    await callback('success');
    // The payee becomes an admin afterwards (or was one all along).
    const promoted = await ctx.control(
      `${API}/admin/user/role`,
      { userId: operator.id, role: 'admin' },
      { token: await ctx.adminToken() },
    );
    expect(promoted.status).toBe(200);
    const list = await ctx.get(`${API}/admin/payout/mismatches?limit=100`, { token: operator.token });
    const mismatch = (list.body.data.items as PayoutMismatchItem[]).find((m) => m.withdrawalId === id);
    if (!mismatch) throw new Error('no mismatch opened');
    for (const action of ['dismiss', 'recover'] as const) {
      const res = await ctx.post(
        `${API}/admin/payout/mismatch/resolve`,
        { id: mismatch.id, action, reason: 'The gateway glitched, keep both' },
        { token: operator.token },
      );
      expect(res).toMatchObject({ status: 403, body: { key: 'cannot_resolve_own_mismatch' } });
    }
    // Another admin may.
    const other = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: mismatch.id, action: 'recover', reason: 'Paid after all' },
      { token: await ctx.adminToken() },
    );
    expect(other.status).toBe(200);
  });
});

describe('defect 4: deletion takes the personal data with it', () => {
  it('removes client signals, push subscriptions, OTP deliveries and proof files', async () => {
    const user = await ctx.newUser();
    const taskId = await proofTask();
    const shot = await uploadProof(user.token, png(41));
    expect(shot.status).toBe(200);
    const submitted = await ctx.post(
      `${API}/user/task/proof/submit`,
      { taskId, imageUrl: shot.body.data.url },
      { token: user.token },
    );
    expect(submitted.status).toBe(200);
    const file = join(dataDir, 'uploads', `${shot.body.data.sha256}.png`);
    expect(existsSync(file)).toBe(true);
    await ctx.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
      p256dh: 'BNc'.padEnd(87, 'A'),
      auth: 'tBHItJI5svbpez7KI4CCXg',
      locale: 'en_US',
    });
    await ctx.db.insert(otpDeliveries).values({
      channel: 'sms',
      kind: 'code',
      target: user.username,
      provider: 'msg91',
      status: 'delivered',
    });
    expect(await ctx.db.select().from(clientSignals).where(eq(clientSignals.userId, user.id))).not.toHaveLength(0);

    expect((await deleteAccount(user.token)).status).toBe(200);

    expect(await ctx.db.select().from(clientSignals).where(eq(clientSignals.userId, user.id))).toEqual([]);
    expect(await ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual([]);
    expect(await ctx.db.select().from(otpDeliveries).where(eq(otpDeliveries.target, user.username))).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(await fetchFile(shot.body.data.url)).toBe(404);
    // The proof stays as a record of the review (its state), without the image.
    const [proof] = await ctx.db.select().from(taskProofs).where(eq(taskProofs.userId, user.id));
    expect(proof?.imageUrl).toBeNull();
  });
});

describe('defect 5: a proof is the uploader own, and only its owner and staff see it', () => {
  it('refuses another user upload or an operator image as a proof; serves proofs by signed URL only', async () => {
    const taskId = await proofTask();
    const alice = await ctx.newUser();
    const mallory = await ctx.newUser();
    const shot = await uploadProof(alice.token, png(52));
    expect(shot.status).toBe(200);
    const bare = `/uploads/${shot.body.data.sha256}.png`;

    // Another user's proof, by its URL, signed or bare.
    for (const imageUrl of [shot.body.data.url, bare]) {
      const stolen = await ctx.post(`${API}/user/task/proof/submit`, { taskId, imageUrl }, { token: mallory.token });
      expect(stolen).toMatchObject({ status: 400, body: { key: 'task_proof_image_invalid' } });
    }
    // An operator's published image is public, and no one's proof.
    const notice = await upload(`${API}/admin/tool/upload`, await ctx.adminToken(), png(53));
    expect(notice.status).toBe(200);
    expect(await fetchFile(notice.body.data.url)).toBe(200);
    const borrowed = await ctx.post(
      `${API}/user/task/proof/submit`,
      { taskId, imageUrl: notice.body.data.url },
      { token: mallory.token },
    );
    expect(borrowed).toMatchObject({ status: 400, body: { key: 'task_proof_image_invalid' } });

    // A proof's bytes: not by its hash alone; by the signed URL its owner and the console get.
    expect(await fetchFile(bare)).toBe(404);
    const own = await ctx.post(`${API}/user/task/proof/submit`, { taskId, imageUrl: bare }, { token: alice.token });
    expect(own.status).toBe(200);
    expect(await fetchFile(own.body.data.imageUrl)).toBe(200);
    const queue = await ctx.get(`${API}/admin/task/proof/list?state=pending&taskId=${taskId}`, {
      token: await ctx.adminToken(),
    });
    const listed = (queue.body.data.items as { userId: number; imageUrl: string }[]).find((p) => p.userId === alice.id);
    expect(await fetchFile(listed?.imageUrl ?? '')).toBe(200);
    // A tampered or expired signature is refused.
    expect(await fetchFile(`${listed?.imageUrl}0`)).toBe(404);
    ctx.advance(8 * 86_400_000);
    expect(await fetchFile(listed?.imageUrl ?? '')).toBe(404);
    ctx.advance(-8 * 86_400_000);
  });
});

describe('defect 6: a missing, malformed or rotated device id at registration is a risk reason', () => {
  let ipSeq = 0;
  const freshIp = () => {
    ipSeq += 1;
    return `203.0.113.${ipSeq}`;
  };
  async function register(inviteCode: string, ip: string, device: string | null, agent = 'Mozilla/5.0 (Android 14)') {
    const phone = ctx.uniquePhone();
    const username = `91${phone}`;
    await ctx.post(`${API}/common/otp/send`, { target: phone, type: 1 }, { ip });
    const headers: Record<string, string> = { 'user-agent': agent };
    if (device !== null) headers['x-device-id'] = device;
    const res = await ctx.post(
      `${API}/common/user/register`,
      {
        username: phone,
        password: 'secret123',
        password2: 'secret123',
        verifyCode: await ctx.lastCode(username),
        inviteCode,
      },
      { ip, headers },
    );
    expect(res.status).toBe(200);
    const token = res.body.data.token as string;
    const id = (await ctx.get(`${API}/user/user/detail`, { token })).body.data.id as number;
    return { token, id };
  }
  async function reasons(user: { token: string; id: number }) {
    await fund(ctx, user.id, 100);
    await bindUpi(ctx, user.token, `u${randomUUID().slice(0, 10)}@okaxis`);
    const made = await withdraw(ctx, user.token, { amount: 100 });
    expect(made.status).toBe(200);
    const list = await ctx.get(`${API}/admin/withdraw/list?userId=${user.id}&limit=10`, {
      token: await ctx.adminToken(),
    });
    const item = (list.body.data.items as AdminWithdrawalItem[]).find((i) => i.id === made.body.data.id);
    return item?.risk.reasons ?? [];
  }

  it('fires for no header, a junk header and a new id from the inviter address and browser; not for a steady one', async () => {
    const inviterIp = freshIp();
    const inviter = await register(ctx.admin.inviteCode, inviterIp, randomUUID());
    const inviteCode = (await ctx.get(`${API}/user/user/detail`, { token: inviter.token })).body.data.inviteCode;
    const missing = await register(inviteCode, freshIp(), null);
    expect(await reasons(missing)).toContain('risk_device_id_missing_or_rotated');
    const junk = await register(inviteCode, freshIp(), '<script>');
    expect(await reasons(junk)).toContain('risk_device_id_missing_or_rotated');
    // Same address and browser as the inviter, a device id never seen before: storage was cleared.
    const rotated = await register(inviteCode, inviterIp, randomUUID());
    expect(await reasons(rotated)).toContain('risk_device_id_missing_or_rotated');
    const steady = await register(inviteCode, freshIp(), randomUUID(), 'Mozilla/5.0 (iPhone)');
    expect(await reasons(steady)).not.toContain('risk_device_id_missing_or_rotated');
  });
});
