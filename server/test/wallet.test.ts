import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entries, postings, tasks, withdrawals } from '../src/db/schema';
import { checkLedger, type PostingInput, post } from '../src/features/wallet/wallet.ledger';
import { createTestContext, type TestContext } from './helpers';

const API = '/go_user/api/v1';
let ctx: TestContext;
let seq = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  // These tests are about post() alone: registration's task-2 reward would add a movement to each wallet.
  await ctx.db.update(tasks).set({ active: false }).where(eq(tasks.id, 2));
});
afterEach(async () => {
  expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
});
afterAll(async () => {
  await ctx.close();
});

async function newUser() {
  const { token } = await ctx.registerUser();
  const detail = await ctx.get(`${API}/user/user/detail`, { token });
  return { token, id: detail.body.data.id as number };
}

const postIt = (input: PostingInput) => ctx.db.transaction((tx) => post(tx, input));
const key = (name: string) => `test:${name}:${++seq}`;

/** Credits a task reward of `paise` from the platform's rewards account. */
function reward(userId: number, paise: bigint, idempotencyKey = key('reward')) {
  return postIt({
    type: 'task_reward',
    idempotencyKey,
    ref: { taskId: 3, taskTitle: 'Answer the survey' },
    entries: [
      { account: { kind: 'platform_rewards' }, amount: -paise },
      { account: { userId, kind: 'wallet' }, amount: paise },
    ],
  });
}

/**
 * Moves `paise` from the wallet to the user's withdrawal hold, with the pending withdrawal it is for
 * (the ledger check compares holds with open withdrawals). A replayed key keeps no second withdrawal.
 */
function hold(userId: number, paise: bigint, idempotencyKey = key('hold')) {
  return ctx.db.transaction(async (tx) => {
    const [withdrawal] = await tx
      .insert(withdrawals)
      .values({ userId, accountType: 'upi', ifsc: '', accountNo: 'test@upi', accountName: 'Test', amount: paise })
      .returning({ id: withdrawals.id });
    if (!withdrawal) throw new Error('no withdrawal row');
    const result = await post(tx, {
      type: 'withdrawal_hold',
      idempotencyKey,
      ref: { withdrawalId: withdrawal.id },
      entries: [
        { account: { userId, kind: 'wallet' }, amount: -paise },
        { account: { userId, kind: 'hold' }, amount: paise },
      ],
    });
    if (!result.created) await tx.delete(withdrawals).where(eq(withdrawals.id, withdrawal.id));
    return result;
  });
}

async function balanceOf(token: string) {
  return (await ctx.get(`${API}/user/user/detail`, { token })).body.data.balance as string;
}

async function postingCount() {
  const [row] = await ctx.db.select({ n: count() }).from(postings);
  return row?.n ?? 0;
}

describe('post() and user/balance/list', () => {
  it('shows a credit and a debit with their sign, balance after and cause, newest first', async () => {
    const user = await newUser();
    await reward(user.id, 12_050n);
    await hold(user.id, 2_000n);

    const list = await ctx.get(`${API}/user/balance/list`, { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.data.nextCursor).toBeNull();
    expect(list.body.data.items).toMatchObject([
      { type: 'withdrawal_hold', amount: '-20.00', balanceAfter: '100.50', ref: { withdrawalId: expect.any(Number) } },
      {
        type: 'task_reward',
        amount: '120.50',
        balanceAfter: '120.50',
        ref: { taskId: 3, taskTitle: 'Answer the survey' },
      },
    ]);
    expect(new Date(list.body.data.items[0].createdAt).toISOString()).toBe(list.body.data.items[0].createdAt);
    expect(await balanceOf(user.token)).toBe('100.50');
  });

  it("names the task in the reader's language", async () => {
    const user = await newUser();
    await reward(user.id, 1_000n);
    const list = await ctx.get(`${API}/user/balance/list`, { token: user.token, lang: 'hi-IN' });
    expect(list.body.data.items[0].ref).toMatchObject({ taskId: 3, taskTitle: 'सर्वेक्षण का उत्तर दें' });
  });

  it('shows a user only their own wallet', async () => {
    const rich = await newUser();
    const other = await newUser();
    await reward(rich.id, 500n);
    const list = await ctx.get(`${API}/user/balance/list`, { token: other.token });
    expect(list.body.data).toEqual({ items: [], nextCursor: null });
  });

  it('changes nothing when the same idempotency key is posted again', async () => {
    const user = await newUser();
    const first = await reward(user.id, 500n, 'task:3:replay');
    const before = await postingCount();
    const again = await reward(user.id, 500n, 'task:3:replay');
    expect(first.created).toBe(true);
    expect(again).toEqual({ postingId: first.postingId, created: false });
    expect(await postingCount()).toBe(before);
    expect(await balanceOf(user.token)).toBe('5.00');
  });

  it('answers "already posted" to a replay even when the balance no longer covers it', async () => {
    const user = await newUser();
    await reward(user.id, 1_000n);
    const first = await hold(user.id, 1_000n, 'withdrawal:1:hold');
    expect(await hold(user.id, 1_000n, 'withdrawal:1:hold')).toEqual({ postingId: first.postingId, created: false });
    expect(await balanceOf(user.token)).toBe('0.00');
  });

  it('refuses an unbalanced posting and writes nothing', async () => {
    const user = await newUser();
    const before = await postingCount();
    const unbalanced = postIt({
      type: 'task_reward',
      idempotencyKey: key('unbalanced'),
      entries: [
        { account: { kind: 'platform_rewards' }, amount: -100n },
        { account: { userId: user.id, kind: 'wallet' }, amount: 101n },
      ],
    });
    await expect(unbalanced).rejects.toThrow(/sum to 1, not 0/);
    expect(await postingCount()).toBe(before);
    expect(await balanceOf(user.token)).toBe('0.00');
  });

  it('leaves the transaction usable after refusing a debit past zero (the caller may catch it)', async () => {
    const user = await newUser();
    await reward(user.id, 1_000n);
    const result = await ctx.db.transaction(async (tx) => {
      const refused = await post(tx, {
        type: 'withdrawal_hold',
        idempotencyKey: key('short'),
        entries: [
          { account: { userId: user.id, kind: 'wallet' }, amount: -1_001n },
          { account: { kind: 'platform_payouts' }, amount: 1_001n },
        ],
      }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ key: 'insufficient_balance' });
      // The same transaction goes on: a credit after the refusal commits with it.
      return post(tx, {
        type: 'task_reward',
        idempotencyKey: key('after'),
        entries: [
          { account: { kind: 'platform_rewards' }, amount: -500n },
          { account: { userId: user.id, kind: 'wallet' }, amount: 500n },
        ],
      });
    });
    expect(result.created).toBe(true);
    expect(await balanceOf(user.token)).toBe('15.00');
  });

  it('refuses a debit past zero with insufficient_balance and writes nothing', async () => {
    const user = await newUser();
    await reward(user.id, 1_000n);
    const before = await postingCount();
    await expect(hold(user.id, 1_001n)).rejects.toMatchObject({ key: 'insufficient_balance', status: 409 });
    expect(await postingCount()).toBe(before);
    expect(await balanceOf(user.token)).toBe('10.00');
    const list = await ctx.get(`${API}/user/balance/list`, { token: user.token });
    expect(list.body.data.items).toHaveLength(1);
  });

  it('keeps platform accounts free of a cached balance: their entries carry no balance_after', async () => {
    const user = await newUser();
    const { postingId } = await reward(user.id, 300n);
    const rows = await ctx.db.select().from(entries).where(eq(entries.postingId, postingId));
    expect(rows.map((r) => [r.amount, r.balanceAfter]).sort()).toEqual([
      [-300n, null],
      [300n, 300n],
    ]);
  });
});

describe('concurrency', () => {
  it('lets exactly 100 of 200 parallel ₹1 debits through a ₹100 wallet', async () => {
    const user = await newUser();
    await reward(user.id, 10_000n);
    const results = await Promise.allSettled(Array.from({ length: 200 }, () => hold(user.id, 100n)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter(
      (r) => r.status === 'rejected' && (r.reason as { key?: string }).key === 'insufficient_balance',
    );
    expect(ok).toHaveLength(100);
    expect(refused).toHaveLength(100);
    expect(await balanceOf(user.token)).toBe('0.00');
    expect(await checkLedger(ctx.db)).toEqual({ ok: true, problems: [] });
  });

  it('makes exactly one posting of 50 parallel credits with one idempotency key', async () => {
    const user = await newUser();
    const results = await Promise.all(Array.from({ length: 50 }, () => reward(user.id, 700n, 'task:4:parallel')));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.postingId)).size).toBe(1);
    const [row] = await ctx.db
      .select({ n: count() })
      .from(postings)
      .where(eq(postings.idempotencyKey, 'task:4:parallel'));
    expect(row?.n).toBe(1);
    expect(await balanceOf(user.token)).toBe('7.00');
  });
});

describe('balance/list pages', () => {
  it('walks every page once, newest first, without duplicates', async () => {
    const user = await newUser();
    for (let i = 1; i <= 7; i++) await reward(user.id, BigInt(i * 100));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `${API}/user/balance/list?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await ctx.get(url, { token: user.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((item: { amount: string }) => item.amount));
      cursor = res.body.data.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['7.00', '6.00', '5.00', '4.00', '3.00', '2.00', '1.00']);
  });

  it('refuses a malformed cursor and a limit over 100', async () => {
    const { token } = await newUser();
    expect((await ctx.get(`${API}/user/balance/list?cursor=nope`, { token })).status).toBe(400);
    expect((await ctx.get(`${API}/user/balance/list?limit=101`, { token })).status).toBe(400);
    expect((await ctx.get(`${API}/user/balance/list`)).status).toBe(401);
  });
});

describe('admin/ledger/check', () => {
  const url = `${API}/admin/ledger/check`;

  it('answers 401 without a token, 403 to a user and the check to an admin', async () => {
    const user = await newUser();
    await reward(user.id, 100n);
    expect((await ctx.get(url)).status).toBe(401);
    expect((await ctx.get(url, { token: user.token })).status).toBe(403);
    const login = await ctx.post(`${API}/common/user/login`, {
      username: ctx.admin.username,
      password: ctx.admin.password,
    });
    const res = await ctx.get(url, { token: login.body.data.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, problems: [], violations: [] });
  });

  it('reports a cached balance that disagrees with its entries', async () => {
    const user = await newUser();
    await reward(user.id, 100n);
    await ctx.db
      .transaction(async (tx) => {
        await tx.execute(`update accounts set balance = 999 where user_id = ${user.id} and kind = 'wallet'`);
        const result = await checkLedger(tx);
        expect(result.ok).toBe(false);
        expect(result.problems.map((p) => p.rule).sort()).toEqual(['balance_after_mismatch', 'balance_mismatch']);
        tx.rollback();
      })
      .catch((error: Error) => {
        if (!/rollback/i.test(error.message)) throw error;
      });
  });
});
