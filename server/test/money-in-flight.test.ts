import type { UnclaimedMoneyItem } from '@kamai/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  auditLog,
  entries,
  notifications,
  rebates,
  taskProofs,
  unclaimedMoney,
  withdrawals,
} from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';
import { API, bindUpi, fund, review, withdraw } from './payout-helpers';
import { type FakePayout, type RazorpayxFake, startRazorpayxFake } from './razorpayx-fake';
import { addAccountValidation } from './razorpayx-validation-fake';

/**
 * Money in flight when an account is deleted (docs/decisions/unclaimed-money.md): a bank's return that
 * arrives afterwards goes to platform_unclaimed with an operator task, never into the frozen wallet;
 * pending proofs are rejected at the deletion and no approval credits the deleted account or its inviter.
 */
const KEYS = {
  keyId: 'rzp_test_KamaiFake1234',
  keySecret: 'fake-key-secret-0123',
  accountNumber: '7878780080316316',
  webhookSecret: 'whsec-current-0123456',
};
const WEBHOOK = `${API}/common/pay/notify/razorpayx`;
const UNCLAIMED = `${API}/admin/withdraw/unclaimed`;

let fake: RazorpayxFake;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startRazorpayxFake(KEYS);
  addAccountValidation(fake, { ...KEYS, instant: () => ({ accountStatus: 'active', registeredName: 'ASHA KUMARI' }) });
  ctx = await createTestContext({
    PAYOUT_GATEWAY: 'razorpayx',
    RAZORPAYX_KEY_ID: KEYS.keyId,
    RAZORPAYX_KEY_SECRET: KEYS.keySecret,
    RAZORPAYX_ACCOUNT_NUMBER: KEYS.accountNumber,
    RAZORPAYX_WEBHOOK_SECRET: KEYS.webhookSecret,
    RAZORPAYX_BASE_URL: fake.url,
    RAZORPAYX_TIMEOUT_MS: '2000',
  });
});
afterEach(async () => {
  // The invariants and every business rule, the unclaimed one included.
  const check = await ctx.get(`${API}/admin/ledger/check`, { token: await ctx.adminToken() });
  expect(check.body.data).toMatchObject({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const deliver = (event: string, payout: FakePayout) =>
  fake.deliver(event, payout, {
    via: async (delivery) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: delivery.body,
        headers: delivery.headers,
      });
      return { status: res.statusCode, body: res.body };
    },
  });

async function balance(userId: number | null, kind: string) {
  const [row] = await ctx.db
    .select({ sum: sql<string>`coalesce(sum(${entries.amount}), 0)::text` })
    .from(entries)
    .innerJoin(accounts, eq(accounts.id, entries.accountId))
    .where(and(userId === null ? isNull(accounts.userId) : eq(accounts.userId, userId), eq(accounts.kind, kind)));
  return BigInt(row?.sum ?? '0');
}

const deleteAccount = (user: { password: string; token: string }) =>
  ctx.post(`${API}/user/account/delete`, { password: user.password }, { token: user.token });

describe('a bank reversal after the deletion', () => {
  it('lands in platform_unclaimed with an operator task, not in the frozen wallet', async () => {
    const user = await ctx.newUser();
    await bindUpi(ctx, user.token);
    await fund(ctx, user.id, '995.00');
    expect(await ctx.balanceOf(user.token)).toBe('1000.00');
    const { id } = (await withdraw(ctx, user.token, { amount: 400 })).body.data;
    expect((await review(ctx, id, 'approve')).status).toBe(200);
    await ctx.worker.jobs.runDue();
    const [stored] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    const payout = fake.payouts.get(stored?.gatewayPayoutId ?? '');
    if (!payout) throw new Error('the fake has no payout');
    await deliver('payout.processed', fake.settle(payout.id, 'processed', { utr: '700000000009' }));
    expect(await ctx.balanceOf(user.token)).toBe('600.00');

    expect((await deleteAccount(user)).status).toBe(200);
    const unclaimedBefore = await balance(null, 'platform_unclaimed');

    // The bank returns the payout after the deletion.
    expect((await deliver('payout.reversed', fake.settle(payout.id, 'reversed'))).status).toBe(200);
    const [after] = await ctx.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    expect(after?.state).toBe('reversed');
    expect(await balance(user.id, 'wallet')).toBe(60_000n);
    expect((await balance(null, 'platform_unclaimed')) - unclaimedBefore).toBe(40_000n);
    // Nobody is reachable: no notification for the deleted account.
    const notes = await ctx.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes).toEqual([]);

    // The operators' task: who, how much, which payout; the menu count.
    const admin = await ctx.adminToken();
    const listed = await ctx.get(`${UNCLAIMED}?handled=false`, { token: admin });
    expect(listed.status).toBe(200);
    expect(listed.body.data.open).toBe(1);
    const [item] = listed.body.data.items as UnclaimedMoneyItem[];
    expect(item).toMatchObject({
      userId: user.id,
      username: `deleted-${user.id}`,
      withdrawalId: id,
      kind: 'reversal',
      amount: '400.00',
      payoutId: payout.id,
      reference: '700000000009',
      gateway: 'razorpayx',
      handled: false,
    });
    expect(item?.accountNo).toMatch(/^••••/);

    // A reviewer sees it; only an admin marks it handled, with a note.
    const reviewer = await ctx.staff('reviewer');
    expect((await ctx.get(UNCLAIMED, { token: reviewer.token })).status).toBe(200);
    const handle = `${UNCLAIMED}/handle`;
    expect((await ctx.post(handle, { id: item?.id, note: 'x' }, { token: reviewer.token })).status).toBe(403);
    const noNote = await ctx.post(handle, { id: item?.id, note: ' ' }, { token: admin, lang: 'hi-IN' });
    expect(noNote).toMatchObject({ status: 400, body: { key: 'enter_unclaimed_note' } });
    expect(noNote.body.message).toBe('लिखें कि इस राशि के साथ क्या किया गया');
    expect((await ctx.post(handle, { id: 999_999, note: 'x' }, { token: admin })).body.key).toBe('unclaimed_not_found');
    // Two admins marking it at once: one note is kept, the others are told it was handled.
    const co = await ctx.coAdmin();
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        ctx.post(
          handle,
          { id: item?.id, note: `returned to the bank account after ID check ${i}` },
          { token: i % 2 ? co.token : admin },
        ),
      ),
    );
    const done = burst.filter((res) => res.status === 200);
    expect(done).toHaveLength(1);
    expect(burst.filter((res) => res.status !== 200).map((res) => res.body.key)).toEqual(
      Array.from({ length: 5 }, () => 'unclaimed_handled_already'),
    );
    expect(done[0]?.body.data).toMatchObject({ handled: true });
    expect(done[0]?.body.data.note).toMatch(/^returned to the bank account after ID check \d$/);
    const audited = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `unclaimed:${item?.id}`));
    expect(audited).toHaveLength(1);
    expect((await ctx.post(handle, { id: item?.id, note: 'again' }, { token: admin })).body.key).toBe(
      'unclaimed_handled_already',
    );
    expect((await ctx.get(UNCLAIMED, { token: admin })).body.data.open).toBe(0);
    // Marking it handled moves no money: it stays unclaimed, the deleted wallet untouched.
    expect(await balance(user.id, 'wallet')).toBe(60_000n);
  });

  it('the unclaimed rule flags money put in platform_unclaimed for a live account', async () => {
    const user = await ctx.newUser();
    const [task] = await ctx.db.select().from(unclaimedMoney).limit(1);
    if (!task) throw new Error('the first test left no unclaimed money');
    // The money's withdrawal made a live user's: the rule names the posting.
    const [live] = await ctx.db
      .update(withdrawals)
      .set({ userId: user.id })
      .where(eq(withdrawals.id, task.withdrawalId))
      .returning({ id: withdrawals.id, owner: withdrawals.userId });
    expect(live?.owner).toBe(user.id);
    const check = await ctx.get(`${API}/admin/ledger/check`, { token: await ctx.adminToken() });
    const found = (check.body.data.violations as { rule: string; detail: string }[]).filter(
      (v) => v.rule === 'unclaimed_for_deleted_account',
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.detail).toContain(`user ${user.id} is not deleted`);
    await ctx.db.update(withdrawals).set({ userId: task.userId }).where(eq(withdrawals.id, task.withdrawalId));
  });
});

describe("a deleted account's pending proofs", () => {
  it('are rejected at the deletion with a translated reason; no approval credits the account or its inviter', async () => {
    const admin = await ctx.adminToken();
    const inviter = await ctx.newUser();
    const invitee = await ctx.newUser({ inviteCode: inviter.inviteCode });
    const added = await ctx.post(
      `${API}/admin/task/add`,
      {
        section: 'hot',
        reward: '50',
        titles: { en_US: 'Share Kamai' },
        verification: { kind: 'proof', proof: 'link' },
      },
      { token: admin },
    );
    expect(added.status).toBe(200);
    const taskId = added.body.data.id as number;
    const submitted = await ctx.post(
      `${API}/user/task/proof/submit`,
      { taskId, link: 'https://wa.me/s/12345' },
      { token: invitee.token },
    );
    expect(submitted.status).toBe(200);
    const proofId = submitted.body.data.id as number;
    const inviterPendingBefore = await balance(inviter.id, 'rebate_pending');
    const walletBefore = await balance(invitee.id, 'wallet');

    expect((await deleteAccount(invitee)).status).toBe(200);
    const [proof] = await ctx.db.select().from(taskProofs).where(eq(taskProofs.id, proofId));
    expect(proof).toMatchObject({ state: 'rejected', reason: 'preset:account_deleted' });
    const queue = await ctx.get(`${API}/admin/task/proof/list?state=pending&taskId=${taskId}`, { token: admin });
    expect(queue.body.data.items).toEqual([]);

    // Approving it now is refused: the account is final.
    const approve = () =>
      ctx.post(`${API}/admin/task/proof/review`, { id: proofId, action: 'approve', reason: '' }, { token: admin });
    expect(await approve()).toMatchObject({ status: 409, body: { key: 'account_deleted_final' } });
    // A proof left pending from before this rule: refused the same way, nothing credited.
    await ctx.db.update(taskProofs).set({ state: 'pending', reason: null }).where(eq(taskProofs.id, proofId));
    const refused = await approve();
    expect(refused).toMatchObject({ status: 409, body: { key: 'account_deleted_final' } });
    expect(await balance(invitee.id, 'wallet')).toBe(walletBefore);
    const paid = await ctx.db.execute(
      sql`select count(*)::int as n from postings where idempotency_key = ${`task:${taskId}:user:${invitee.id}`}`,
    );
    expect((paid as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    // The inviter gets nothing from it.
    expect(await balance(inviter.id, 'rebate_pending')).toBe(inviterPendingBefore);
    const owed = await ctx.db.select().from(rebates).where(eq(rebates.inviteeId, invitee.id));
    expect(owed.filter((r) => r.amount === 500n)).toEqual([]);
    await ctx.db
      .update(taskProofs)
      .set({ state: 'rejected', reason: 'preset:account_deleted' })
      .where(eq(taskProofs.id, proofId));
  });
});
