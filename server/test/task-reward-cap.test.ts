import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';
import { API } from './payout-helpers';

/**
 * One operator cannot mint money through a task: a reward above the credit threshold (the amount a
 * manual credit may post without a second admin) is refused at creation and at edit, since an
 * account of the operator's own could submit a proof and the operator approve it alone.
 */
describe('a task reward stays within the credit four-eyes threshold', () => {
  let ctx: TestContext;
  let admin: string;
  const task = (reward: string) => ({
    section: 'hot',
    reward,
    titles: { en_US: 'Review Kamai in the Play Store' },
    verification: { kind: 'proof', proof: 'either' },
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.adminToken();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('refuses a reward above the threshold, in the operator language, and takes one at it', async () => {
    const above = await ctx.post(`${API}/admin/task/add`, task('500000'), { token: admin, lang: 'hi_IN' });
    expect(above.status).toBe(400);
    expect(above.body).toMatchObject({ key: 'task_reward_above_credit_approval', data: { max: '10000.00' } });
    expect(above.body.message).toContain('₹10000.00');
    const at = await ctx.post(`${API}/admin/task/add`, task('10000'), { token: admin });
    expect(at.status).toBe(200);
    const raised = await ctx.post(
      `${API}/admin/task/edit`,
      { id: at.body.data.id, reward: '10000.01' },
      { token: admin },
    );
    expect(raised.body).toMatchObject({ code: 400, key: 'task_reward_above_credit_approval' });
    const lowered = await ctx.post(`${API}/admin/task/edit`, { id: at.body.data.id, reward: '25' }, { token: admin });
    expect(lowered.status).toBe(200);
  });

  it('follows the threshold once a second admin has applied a raise', async () => {
    const raise = await ctx.control(`${API}/admin/settings/set`, { risk: { creditApprovalAbove: '20000' } });
    expect(raise.status).toBe(200);
    expect((await ctx.post(`${API}/admin/task/add`, task('15000'), { token: admin })).status).toBe(200);
  });
});
