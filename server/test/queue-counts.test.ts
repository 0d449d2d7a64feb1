import { type AdminQueueCounts, translate } from '@kamai/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountValidations, payoutMismatches, taskProofs, tasks } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, withdraw } from './payout-helpers';

const COUNTS = `${API}/admin/queue/counts`;

let ctx: TestContext;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

async function counts(token: string): Promise<AdminQueueCounts> {
  const res = await ctx.get(COUNTS, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A pending withdrawal of a new user (₹200 of ₹500). */
async function pendingWithdrawal() {
  const user = await payee(ctx, 500);
  const res = await withdraw(ctx, user.token, { amount: 200 });
  expect(res.status).toBe(200);
  return { user, id: res.body.data.id as number };
}

async function pendingProof() {
  const user = await ctx.newUser();
  const [task] = await ctx.db
    .insert(tasks)
    .values({
      section: 'hot',
      kind: 'custom',
      titles: { en_US: 'Follow us' },
      reward: 100n,
      verification: { kind: 'proof', proof: 'link' },
    })
    .returning({ id: tasks.id });
  const [proof] = await ctx.db
    .insert(taskProofs)
    .values({ userId: user.id, taskId: task?.id ?? 0, link: 'https://example.com/follow' })
    .returning({ id: taskProofs.id });
  return proof?.id ?? 0;
}

async function openMismatch(withdrawalId: number) {
  seq += 1;
  const [row] = await ctx.db
    .insert(payoutMismatches)
    .values({
      withdrawalId,
      gateway: 'sandbox',
      dedupeKey: `queue-counts:${seq}`,
      state: 'pending',
      callbackStatus: 'paid',
    })
    .returning({ id: payoutMismatches.id });
  return row?.id ?? 0;
}

async function queuedCheck(userId: number) {
  seq += 1;
  const [row] = await ctx.db
    .insert(accountValidations)
    .values({
      accountType: 'bank',
      ifsc: 'HDFC0001234',
      accountNo: `5010012345${String(seq).padStart(4, '0')}`,
      accountName: 'Asha Kumari',
      requestedBy: userId,
      gateway: 'sandbox',
      status: 'pending',
      reviewState: 'queued',
      reviewCause: 'unavailable',
      reviewQueuedAt: ctx.now(),
    })
    .returning({ id: accountValidations.id });
  return row?.id ?? 0;
}

async function complaint(token: string) {
  const res = await ctx.post(`${API}/user/complaint/add`, { category: 'other', text: 'Where is my money?' }, { token });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

describe('admin/queue/counts', () => {
  it('counts what waits on each list of work, and goes down when an item is decided', async () => {
    const admin = await ctx.adminToken();
    const before = await counts(admin);
    const { user, id: withdrawalId } = await pendingWithdrawal();
    await pendingProof();
    const mismatchId = await openMismatch(withdrawalId);
    await queuedCheck(user.id);
    await complaint(user.token);

    const after = await counts(admin);
    expect(after).toEqual({
      withdrawals: (before.withdrawals ?? 0) + 1,
      accountChecks: (before.accountChecks ?? 0) + 1,
      proofs: (before.proofs ?? 0) + 1,
      mismatches: (before.mismatches ?? 0) + 1,
      complaints: (before.complaints ?? 0) + 1,
      complaintsOverdue: before.complaintsOverdue,
    });

    // Approved and dismissed: both leave their queues.
    const approved = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id: withdrawalId, action: 'approve' },
      { token: admin },
    );
    expect(approved.status).toBe(200);
    const dismissed = await ctx.post(
      `${API}/admin/payout/mismatch/resolve`,
      { id: mismatchId, action: 'dismiss', reason: 'Checked with the gateway' },
      { token: admin },
    );
    expect(dismissed.status).toBe(200);
    const decided = await counts(admin);
    expect(decided.withdrawals).toBe(before.withdrawals);
    expect(decided.mismatches).toBe(before.mismatches);
  });

  it('counts a complaint past its deadline as overdue', async () => {
    const admin = await ctx.adminToken();
    const user = await ctx.newUser();
    await complaint(user.token);
    const before = await counts(admin);
    ctx.advance(25 * 3_600_000);
    try {
      const later = await counts(admin);
      expect(later.complaints).toBe(before.complaints);
      // Every complaint not acknowledged within 24 hours is now overdue, this one included.
      expect(later.complaintsOverdue).toBe(later.complaints);
      expect(later.complaintsOverdue ?? 0).toBeGreaterThan(before.complaintsOverdue ?? 0);
    } finally {
      ctx.advance(-25 * 3_600_000);
    }
  });

  it('answers null for a queue the role does not act on: a reviewer resolves no payout mismatches', async () => {
    const reviewer = await ctx.staff('reviewer');
    const seen = await counts(reviewer.token);
    const admin = await counts(await ctx.adminToken());
    expect(seen.mismatches).toBeNull();
    expect(admin.mismatches).toEqual(expect.any(Number));
    expect(seen).toEqual({ ...admin, mismatches: null });
  });

  it('is for staff only', async () => {
    const user = await ctx.newUser();
    expect((await ctx.get(COUNTS, { token: user.token })).status).toBe(403);
    expect((await ctx.get(COUNTS)).status).toBe(401);
  });
});

describe('a queue action someone else decided first', () => {
  it('a withdrawal another reviewer approved: the refusal says who and when, in the caller’s language', async () => {
    const { id } = await pendingWithdrawal();
    const first = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'approve' },
      { token: await ctx.adminToken() },
    );
    expect(first.status).toBe(200);
    const second = await ctx.coAdmin();
    const res = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'reject', preset: 'other', reason: 'late' },
      { token: second.token, lang: 'hi-IN' },
    );
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('withdrawal_state_conflict');
    expect(res.body.message).toBe(translate('hi_IN', 'withdrawal_state_conflict'));
    expect(res.body.data.current).toEqual({
      state: 'approved',
      by: ctx.admin.username,
      at: first.body.data.reviewedAt,
    });
  });

  it('a withdrawal its user cancelled: no operator, the time it was cancelled', async () => {
    const { user, id } = await pendingWithdrawal();
    expect((await ctx.post(`${API}/user/withdraw/cancel`, { id }, { token: user.token })).status).toBe(200);
    const res = await ctx.post(
      `${API}/admin/withdraw/review`,
      { id, action: 'approve' },
      { token: await ctx.adminToken() },
    );
    expect(res.status).toBe(409);
    expect(res.body.data.current).toMatchObject({ state: 'cancelled', by: null });
    expect(Date.parse(res.body.data.current.at)).not.toBeNaN();
  });

  it('a complaint another operator closed, and one already acknowledged', async () => {
    const user = await ctx.newUser();
    const id = await complaint(user.token);
    const admin = await ctx.adminToken();
    const closed = await ctx.post(
      `${API}/admin/complaint/close`,
      { id, outcome: 'upheld', text: 'Paid again.' },
      { token: admin },
    );
    expect(closed.status).toBe(200);
    const second = await ctx.coAdmin();
    const reply = await ctx.post(
      `${API}/admin/complaint/reply`,
      { id, text: 'Looking into it' },
      { token: second.token },
    );
    expect(reply.status).toBe(409);
    expect(reply.body.key).toBe('complaint_already_closed');
    expect(reply.body.data.current).toEqual({ state: 'closed', by: ctx.admin.username, at: closed.body.data.closedAt });

    const other = await complaint(user.token);
    expect((await ctx.post(`${API}/admin/complaint/acknowledge`, { id: other }, { token: admin })).status).toBe(200);
    const again = await ctx.post(`${API}/admin/complaint/acknowledge`, { id: other }, { token: second.token });
    expect(again.status).toBe(409);
    expect(again.body.key).toBe('complaint_acknowledged_already');
    expect(again.body.data.current).toMatchObject({ state: 'acknowledged', by: ctx.admin.username });
  });

  it('a proof, a payout mismatch and an account check decided by another operator', async () => {
    const admin = await ctx.adminToken();
    const second = await ctx.coAdmin();

    const proof = await pendingProof();
    const approved = await ctx.post(
      `${API}/admin/task/proof/review`,
      { id: proof, action: 'approve', reason: '' },
      { token: admin },
    );
    expect(approved.status).toBe(200);
    const late = await ctx.post(
      `${API}/admin/task/proof/review`,
      { id: proof, action: 'reject', preset: 'other', reason: 'no' },
      { token: second.token },
    );
    expect(late.status).toBe(409);
    expect(late.body.key).toBe('task_proof_state_conflict');
    expect(late.body.data.current).toMatchObject({ state: 'approved', by: ctx.admin.username });

    const { user, id: withdrawalId } = await pendingWithdrawal();
    const mismatch = await openMismatch(withdrawalId);
    const body = { id: mismatch, action: 'dismiss', reason: 'Checked with the gateway' };
    expect((await ctx.post(`${API}/admin/payout/mismatch/resolve`, body, { token: admin })).status).toBe(200);
    const twice = await ctx.post(`${API}/admin/payout/mismatch/resolve`, body, { token: second.token });
    expect(twice.status).toBe(409);
    expect(twice.body.key).toBe('payout_mismatch_resolved_already');
    expect(twice.body.data.current).toMatchObject({ state: 'dismiss', by: ctx.admin.username });

    const check = await queuedCheck(user.id);
    const refused = await ctx.post(
      `${API}/admin/account-check/decide`,
      { id: check, action: 'refuse', reason: 'account_invalid', note: '' },
      { token: admin },
    );
    expect(refused.status).toBe(200);
    const afterwards = await ctx.post(
      `${API}/admin/account-check/decide`,
      { id: check, action: 'approve', note: '' },
      { token: second.token },
    );
    expect(afterwards.status).toBe(409);
    expect(afterwards.body.key).toBe('account_check_decided_already');
    expect(afterwards.body.data.current).toMatchObject({ state: 'refused', by: ctx.admin.username });
  });
});
