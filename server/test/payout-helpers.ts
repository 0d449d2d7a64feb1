import type { WithdrawalItem } from '@kamai/contract';
import { signParams } from '../src/features/payouts/payouts.signature';
import type { TestContext } from './helpers';

export const API = '/go_user/api/v1';
export const NOTIFY = `${API}/common/pay/notify/masterpay`;

/** Credits a user's wallet through the admin API (rebates go to the admin, their inviter). */
export async function fund(ctx: TestContext, userId: number, rupees: string | number) {
  const res = await ctx.post(
    `${API}/admin/revenue/add`,
    { userId, amount: rupees, remark: 'test funds' },
    { token: await ctx.adminToken() },
  );
  if (res.status !== 200) throw new Error(`revenue/add failed: ${JSON.stringify(res.body)}`);
}

/** Saves a default UPI account for the user and answers its id. */
export async function bindUpi(ctx: TestContext, token: string, upi = 'asha.k@okaxis') {
  const res = await ctx.post(`${API}/user/wdaccount/bind`, { accountNo: upi, accountName: 'Asha Kumari' }, { token });
  if (res.status !== 200) throw new Error(`wdaccount/bind failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id as number;
}

/** A user with a default UPI account and exactly `rupees` in the wallet (registration's reward is spent on nothing: it is counted in). */
export async function payee(ctx: TestContext, rupees: number) {
  const user = await ctx.newUser();
  await bindUpi(ctx, user.token);
  const start = Number(await ctx.balanceOf(user.token));
  if (rupees > start) await fund(ctx, user.id, (rupees - start).toFixed(2));
  return user;
}

export function withdraw(
  ctx: TestContext,
  token: string,
  body: { amount: unknown; accountId?: number },
  idempotencyKey?: string,
) {
  return ctx.post(`${API}/user/withdraw/add`, body, {
    token,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
}

export async function review(ctx: TestContext, id: number, action: 'approve' | 'reject', reason = '') {
  return ctx.post(`${API}/admin/withdraw/review`, { id, action, reason }, { token: await ctx.adminToken() });
}

/** The user's withdrawal `id` as /List4 shows it. */
export async function ownWithdrawal(ctx: TestContext, token: string, id: number) {
  const list = await ctx.get(`${API}/user/withdraw/list?limit=100`, { token });
  return (list.body.data.items as WithdrawalItem[]).find((item) => item.id === id);
}

/** A callback URL as the gateway would call it: parameters signed with `secret` unless `sign` is given. */
export function callbackUrl(params: Record<string, string>, secret: string, sign?: string) {
  const query = new URLSearchParams({ ...params, sign: sign ?? signParams(params, secret) });
  return `${NOTIFY}?${query.toString()}`;
}

export const nowSeconds = (ctx: TestContext, offsetSeconds = 0) =>
  String(Math.floor(ctx.now().getTime() / 1000) + offsetSeconds);
