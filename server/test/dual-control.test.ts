import type { AdminWithdrawalItem, ControlChangeItem, CreditRequestItem } from '@kamai/contract';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, controlChanges } from '../src/db/schema';
import { expireDueChanges } from '../src/platform/control-changes';
import { createTestContext, type TestContext } from './helpers';
import { API, payee, withdraw } from './payout-helpers';

// Separation of duties (docs/decisions/dual-control.md): no admin alone weakens a control.
const ADMIN = `${API}/admin`;
const HOUR = 3_600_000;

async function auditActions(ctx: TestContext, target: string) {
  const rows = await ctx.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.target, target))
    .orderBy(desc(auditLog.id));
  return rows.map((row) => row.action);
}

async function changeOf(ctx: TestContext, id: number, token: string): Promise<ControlChangeItem> {
  const list = await ctx.get(`${ADMIN}/control/list?limit=100`, { token });
  const item = (list.body.data.items as ControlChangeItem[]).find((c) => c.id === id);
  if (!item) throw new Error(`control change ${id} is not listed`);
  return item;
}

describe('with two admins', () => {
  let ctx: TestContext;
  let admin: string;
  let co: { id: number; token: string };
  let adminId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.adminToken();
    adminId = (await ctx.get(`${API}/user/user/detail`, { token: admin })).body.data.id;
    co = await ctx.coAdmin();
  });
  afterEach(async () => {
    expect(await ctx.checkLedger()).toEqual({ ok: true, problems: [] });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('does not let one admin raise the four-eyes thresholds: the change waits for another admin', async () => {
    const raise = { risk: { creditApprovalAbove: '500000', secondApprovalAbove: '500000' } };
    const proposed = await ctx.post(`${ADMIN}/settings/set`, raise, { token: admin });
    expect(proposed.status).toBe(200);
    expect(proposed.body.data.change).toMatchObject({ state: 'pending' });
    expect(proposed.body.data.risk).toMatchObject({ creditApprovalAbove: '10000.00', secondApprovalAbove: '10000.00' });

    // The ₹5,00,000 credit still waits for a second admin.
    const user = await ctx.newUser();
    const credit = await ctx.post(
      `${ADMIN}/revenue/add`,
      { userId: user.id, amount: '500000', remark: 'takeover attempt' },
      { token: admin },
    );
    expect(credit.body.data.creditRequest).toMatchObject({ state: 'pending' });
    expect(credit.body.data.postingId).toBeNull();

    const own = await ctx.post(`${ADMIN}/control/apply`, { id: proposed.body.data.change.id }, { token: admin });
    expect(own.body).toMatchObject({ code: 409, key: 'control_second_admin_required' });
    const hindi = await ctx.post(
      `${ADMIN}/control/apply`,
      { id: proposed.body.data.change.id },
      { token: admin, lang: 'hi_IN' },
    );
    expect(hindi.body.message).toBe('यह बदलाव किसी दूसरे एडमिन को लागू करना होगा');

    const item = await changeOf(ctx, proposed.body.data.change.id, admin);
    expect(item).toMatchObject({ kind: 'settings', state: 'pending', singleAdmin: false });
    expect(item.fields).toEqual([
      { field: 'risk.creditApprovalAbove', from: '10000.00', to: '500000.00' },
      { field: 'risk.secondApprovalAbove', from: '10000.00', to: '500000.00' },
    ]);
    expect(await auditActions(ctx, 'setting:settings')).toEqual(['control.propose']);

    // Lowering a threshold only tightens: it applies at once. The raise is then stale.
    const lower = await ctx.post(`${ADMIN}/settings/set`, { risk: { secondApprovalAbove: '9000' } }, { token: admin });
    expect(lower.body.data).toMatchObject({ change: null, risk: { secondApprovalAbove: '9000.00' } });
    const stale = await ctx.post(`${ADMIN}/control/apply`, { id: item.id }, { token: co.token });
    expect(stale.body).toMatchObject({ code: 409, key: 'control_change_stale' });
    expect((await ctx.get(`${ADMIN}/settings/get`, { token: admin })).body.data.risk.creditApprovalAbove).toBe(
      '10000.00',
    );

    // A fresh proposal, applied by the other admin, takes effect; the audit log has both steps.
    const again = await ctx.post(`${ADMIN}/settings/set`, { risk: { secondApprovalAbove: '10000' } }, { token: admin });
    const applied = await ctx.post(`${ADMIN}/control/apply`, { id: again.body.data.change.id }, { token: co.token });
    expect(applied.body).toMatchObject({ code: 200, key: 'control_change_applied', data: { state: 'applied' } });
    expect(applied.body.data.decidedBy).toBe(co.id);
    expect((await ctx.get(`${ADMIN}/settings/get`, { token: admin })).body.data.risk.secondApprovalAbove).toBe(
      '10000.00',
    );
    expect((await auditActions(ctx, 'setting:settings')).slice(0, 2)).toEqual(['control.apply', 'control.propose']);
  });

  it('refuses a bad settings proposal at once, writing no proposal', async () => {
    const bad = await ctx.post(`${ADMIN}/settings/set`, { withdrawal: { min: '60000' } }, { token: admin });
    expect(bad.body).toMatchObject({ code: 400, key: 'withdrawal_limits_invalid' });
  });

  it("does not let an admin set another admin's password and log in as them", async () => {
    const other = await ctx.staff('admin');
    const reviewer = await ctx.staff('reviewer');
    for (const target of [other, reviewer]) {
      const reset = await ctx.post(
        `${ADMIN}/user/resetpass`,
        { userId: target.id, password: 'taken-over-42' },
        { token: admin },
      );
      expect(reset.body).toMatchObject({ code: 409, key: 'staff_password_by_code' });
      const login = await ctx.post(`${API}/common/user/login`, {
        username: target.username,
        password: 'taken-over-42',
      });
      expect(login.status).not.toBe(200);
      expect((await ctx.get(`${API}/user/user/detail`, { token: target.token })).status).toBe(200);
    }
  });

  it('does not let an admin promote their own second account alone', async () => {
    const second = await ctx.newUser();
    const grant = await ctx.post(`${ADMIN}/user/role`, { userId: second.id, role: 'admin' }, { token: admin });
    expect(grant.body.data).toMatchObject({ role: 'user', change: { state: 'pending' } });
    const id = grant.body.data.change.id;
    expect((await ctx.post(`${ADMIN}/control/apply`, { id }, { token: admin })).body.key).toBe(
      'control_second_admin_required',
    );
    // The account itself is no admin, and could not apply a change about itself anyway.
    expect((await ctx.post(`${ADMIN}/control/apply`, { id }, { token: second.token })).status).toBe(403);
    expect((await ctx.get(`${ADMIN}/user/detail?id=${second.id}`, { token: admin })).body.data.user.role).toBe('user');

    // Applied by the other admin, the account is an admin; it may not apply its promoter's changes.
    expect((await ctx.post(`${ADMIN}/control/apply`, { id }, { token: co.token })).status).toBe(200);
    const next = await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: 3000, level2Bps: 500 }, { token: admin });
    const byPromoted = await ctx.post(
      `${ADMIN}/control/apply`,
      { id: next.body.data.change.id },
      { token: second.token },
    );
    expect(byPromoted.body).toMatchObject({ code: 409, key: 'control_promoted_by_proposer' });
    // Nor does any admin apply a change about their own account.
    const aboutCo = await ctx.post(`${ADMIN}/user/role`, { userId: co.id, role: 'user' }, { token: admin });
    const self = await ctx.post(`${ADMIN}/control/apply`, { id: aboutCo.body.data.change.id }, { token: co.token });
    expect(self.body).toMatchObject({ code: 409, key: 'control_change_about_self' });
    for (const change of [next, aboutCo]) {
      await ctx.post(`${ADMIN}/control/cancel`, { id: change.body.data.change.id }, { token: admin });
    }
  });

  it('voids a demoted reviewer’s first approval and a removed admin’s credit requests', async () => {
    const lowered = await ctx.post(`${ADMIN}/settings/set`, { risk: { secondApprovalAbove: '150' } }, { token: admin });
    expect(lowered.body.data.change).toBeNull();
    const reviewer = await ctx.staff('reviewer');
    const user = await payee(ctx, 1000);
    const asked = await withdraw(ctx, user.token, { amount: 200 });
    expect(asked.status).toBe(200);
    const wid = asked.body.data.id as number;
    const first = await ctx.post(`${ADMIN}/withdraw/review`, { id: wid, action: 'approve' }, { token: reviewer.token });
    expect(first.body.data.approvals.first).toMatchObject({ reviewerId: reviewer.id });

    const other = await ctx.staff('admin');
    const requested = await ctx.post(
      `${ADMIN}/revenue/add`,
      { userId: user.id, amount: '20000', remark: 'needs a second admin' },
      { token: other.token },
    );
    const requestId = requested.body.data.creditRequest.id as number;

    for (const staff of [reviewer, other]) {
      expect((await ctx.control(`${ADMIN}/user/role`, { userId: staff.id, role: 'user' })).status).toBe(200);
    }
    const list = await ctx.get(`${ADMIN}/withdraw/list?userId=${user.id}&limit=10`, { token: admin });
    const item = (list.body.data.items as AdminWithdrawalItem[]).find((w) => w.id === wid);
    expect(item?.approvals).toEqual({ required: 2, first: null });
    // The admin's approval is a first approval again, not the second that dispatches.
    const next = await ctx.post(`${ADMIN}/withdraw/review`, { id: wid, action: 'approve' }, { token: admin });
    expect(next.body.data).toMatchObject({ state: 'pending', approvals: { first: { reviewerId: adminId } } });

    const requests = await ctx.get(`${ADMIN}/revenue/requests?limit=100`, { token: admin });
    const request = (requests.body.data.items as CreditRequestItem[]).find((r) => r.id === requestId);
    expect(request).toMatchObject({ state: 'rejected', reason: 'requester_removed' });
    const approve = await ctx.post(
      `${ADMIN}/revenue/review`,
      { id: requestId, action: 'approve' },
      { token: co.token },
    );
    expect(approve.body.key).toBe('credit_request_decided');
    await ctx.post(`${ADMIN}/settings/set`, { risk: { secondApprovalAbove: '10000' } }, { token: admin });
  });

  it('lets any admin cancel a pending change, once', async () => {
    const proposed = await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: 2000, level2Bps: 500 }, { token: admin });
    const id = proposed.body.data.change.id;
    expect(proposed.body.data).toMatchObject({ level1Bps: 1000 });
    const cancelled = await ctx.post(`${ADMIN}/control/cancel`, { id }, { token: co.token });
    expect(cancelled.body).toMatchObject({
      key: 'control_change_cancelled',
      data: { state: 'cancelled', decidedBy: co.id },
    });
    expect((await ctx.post(`${ADMIN}/control/apply`, { id }, { token: co.token })).body.key).toBe(
      'control_change_decided',
    );
    expect((await ctx.get(`${ADMIN}/rebate/get`, { token: admin })).body.data.level1Bps).toBe(1000);
    expect((await auditActions(ctx, 'setting:rebate')).slice(0, 2)).toEqual(['control.cancel', 'control.propose']);
    // Lower rates and a longer hold apply at once.
    const lower = await ctx.post(
      `${ADMIN}/rebate/set`,
      { level1Bps: 900, level2Bps: 500, holdDays: 8 },
      { token: admin },
    );
    expect(lower.body.data).toMatchObject({ level1Bps: 900, holdDays: 8, change: null });
  });

  it('applies a proposal once under a parallel burst of applies and cancels', async () => {
    const proposed = await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: 1800, level2Bps: 500 }, { token: admin });
    const id = proposed.body.data.change.id;
    const before = (await ctx.get(`${ADMIN}/rebate/get`, { token: admin })).body.data.level1Bps;
    const burst = await Promise.all([
      ...Array.from({ length: 8 }, () => ctx.post(`${ADMIN}/control/apply`, { id }, { token: co.token })),
      ...Array.from({ length: 4 }, () => ctx.post(`${ADMIN}/control/cancel`, { id }, { token: co.token })),
    ]);
    const decided = burst.filter((res) => res.status === 200);
    expect(decided).toHaveLength(1);
    expect(burst.filter((res) => res.status !== 200).map((res) => res.body.key)).toEqual(
      Array.from({ length: 11 }, () => 'control_change_decided'),
    );
    const ended = decided[0]?.body.key === 'control_change_applied' ? 'control.apply' : 'control.cancel';
    // One decision is written to the audit log after the proposal.
    const actions = await auditActions(ctx, 'setting:rebate');
    const sinceProposal = actions.slice(0, actions.indexOf('control.propose'));
    expect(sinceProposal.filter((action) => action.startsWith('control.'))).toEqual([ended]);
    const level1 = (await ctx.get(`${ADMIN}/rebate/get`, { token: admin })).body.data.level1Bps;
    expect(level1).toBe(ended === 'control.apply' ? 1800 : before);
    await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: before, level2Bps: 500, holdDays: 8 }, { token: admin });
  });

  it('expires a proposal nobody applied within 48 hours', async () => {
    // Freezing staff applies at once; lifting the freeze is proposed.
    const user = await ctx.staff('reviewer');
    const frozen = await ctx.post(`${ADMIN}/user/freeze`, { userId: user.id, frozen: true }, { token: admin });
    expect(frozen.body.data).toMatchObject({ frozen: true, change: null });
    const proposed = await ctx.post(`${ADMIN}/user/freeze`, { userId: user.id, frozen: false }, { token: admin });
    expect(proposed.body.data).toMatchObject({ frozen: true, change: { state: 'pending' } });
    const lapsing = await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: 1500, level2Bps: 500 }, { token: admin });
    ctx.advance(49 * HOUR);
    const late = await ctx.post(`${ADMIN}/control/apply`, { id: proposed.body.data.change.id }, { token: co.token });
    expect(late.body).toMatchObject({ code: 409, key: 'control_change_expired' });
    expect(await auditActions(ctx, `user:${user.id}`)).toContain('control.expire');
    expect(await expireDueChanges(ctx.db, ctx.now())).toBeGreaterThanOrEqual(1);
    const [row] = await ctx.db
      .select({ state: controlChanges.state })
      .from(controlChanges)
      .where(eq(controlChanges.id, lapsing.body.data.change.id));
    expect(row?.state).toBe('expired');
    expect((await auditActions(ctx, 'setting:rebate'))[0]).toBe('control.expire');
  });
});

describe('with a single admin', () => {
  let ctx: TestContext;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.adminToken();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('applies the admin’s own change only after 24 hours, shown to every staff member', async () => {
    const reviewer = await ctx.newUser();
    const grant = await ctx.post(`${ADMIN}/user/role`, { userId: reviewer.id, role: 'reviewer' }, { token: admin });
    const { id, earliestApplyAt } = grant.body.data.change;
    expect(new Date(earliestApplyAt).getTime() - ctx.now().getTime()).toBeGreaterThan(23.9 * HOUR);
    const early = await ctx.post(`${ADMIN}/control/apply`, { id }, { token: admin });
    expect(early.body).toMatchObject({ code: 409, key: 'control_delay_pending' });
    ctx.advance(24 * HOUR + 60_000);
    expect((await ctx.post(`${ADMIN}/control/apply`, { id }, { token: admin })).status).toBe(200);

    const raise = await ctx.post(`${ADMIN}/settings/set`, { withdrawal: { max: '60000' } }, { token: admin });
    expect(raise.body.data.change.state).toBe('pending');
    // The reviewer sees the waiting change and when it may be applied; only an admin may cancel.
    const seen = await ctx.get(`${ADMIN}/control/list?limit=10`, { token: reviewer.token });
    expect(seen.body.data).toMatchObject({ pending: 1, delayedUntil: raise.body.data.change.earliestApplyAt });
    expect(seen.body.data.items[0]).toMatchObject({ singleAdmin: true, fields: [{ field: 'withdrawal.max' }] });
    const byReviewer = await ctx.post(
      `${ADMIN}/control/cancel`,
      { id: raise.body.data.change.id },
      { token: reviewer.token },
    );
    expect(byReviewer.status).toBe(403);
    const cancelled = await ctx.post(`${ADMIN}/control/cancel`, { id: raise.body.data.change.id }, { token: admin });
    expect(cancelled.body.data.state).toBe('cancelled');
    expect((await ctx.get(`${ADMIN}/control/list?limit=10`, { token: reviewer.token })).body.data).toMatchObject({
      pending: 0,
      delayedUntil: null,
    });
  });
});

describe('the linked-account hourly rate', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is raised only by a second admin, and lowered at once', async () => {
    const admin = await ctx.adminToken();
    const co = await ctx.coAdmin();
    const rate = async () => (await ctx.get(`${ADMIN}/ws/rate/get`, { token: admin })).body.data.hourlyRate;
    expect(await rate()).toBe('2.00');
    const raised = await ctx.post(`${ADMIN}/ws/rate/set`, { hourlyRate: '10000' }, { token: admin });
    expect(raised.body.data).toMatchObject({ hourlyRate: '2.00', change: { state: 'pending' } });
    expect(await rate()).toBe('2.00');
    // The proposer cannot apply it; the second admin can.
    const own = await ctx.post(`${ADMIN}/control/apply`, { id: raised.body.data.change.id }, { token: admin });
    expect(own.status).toBeGreaterThanOrEqual(400);
    const applied = await ctx.post(`${ADMIN}/control/apply`, { id: raised.body.data.change.id }, { token: co.token });
    expect(applied.status).toBe(200);
    expect(await rate()).toBe('10000.00');
    const lowered = await ctx.post(`${ADMIN}/ws/rate/set`, { hourlyRate: '1.50' }, { token: admin });
    expect(lowered.body.data).toEqual({ hourlyRate: '1.50', change: null });
    expect(await rate()).toBe('1.50');
  });
});
