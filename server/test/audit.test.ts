import { type RouteDef, routes } from '@kamai/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

const ADMIN = '/go_user/api/v1/admin';
let ctx: TestContext;
let adminToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  adminToken = await ctx.adminToken();
});
afterAll(async () => {
  await ctx.close();
});

type Item = { id: number; actorId: number; actorUsername: string; action: string; target: string; before: unknown };

async function auditList(query: string) {
  const res = await ctx.get(`${ADMIN}/audit/list?${query}`, { token: adminToken });
  expect(res.status).toBe(200);
  return res.body.data as { items: Item[]; nextCursor: string | null };
}

const freeze = (userId: number, frozen: boolean) =>
  ctx.post(`${ADMIN}/user/freeze`, { userId, frozen }, { token: adminToken });

describe('admin/audit/list', () => {
  it('lists admin actions newest first, filtered by target, action, actor and time, in keyset pages', async () => {
    const user = await ctx.newUser();
    const startedAt = new Date(Date.now() - 1000).toISOString();
    await freeze(user.id, true);
    await ctx.post(`${ADMIN}/rebate/set`, { level1Bps: 900, level2Bps: 400 }, { token: adminToken });
    await freeze(user.id, false);

    const byTarget = await auditList(`target=user:${user.id}`);
    expect(byTarget.items).toMatchObject([
      { action: 'user.freeze', before: { frozen: true }, after: { frozen: false }, actorUsername: ctx.admin.username },
      { action: 'user.freeze', before: { frozen: false }, after: { frozen: true } },
    ]);
    const actorId = byTarget.items[0]?.actorId;

    const first = await auditList(`action=user.freeze&actorId=${actorId}&limit=1`);
    expect(first.items.map((i) => i.id)).toEqual([byTarget.items[0]?.id]);
    const second = await auditList(`action=user.freeze&actorId=${actorId}&limit=1&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.id)).toEqual([byTarget.items[1]?.id]);

    const since = await auditList(`from=${encodeURIComponent(startedAt)}`);
    expect(since.items.map((i) => i.action)).toEqual(['user.freeze', 'rebate.set', 'user.freeze']);
    expect((await auditList(`target=user:${user.id}&to=${encodeURIComponent(startedAt)}`)).items).toEqual([]);
    expect((await auditList(`target=user:${user.id}&actorId=${user.id}`)).items).toEqual([]);
  });
});

describe('the audit log is append-only', () => {
  it('has no route that changes it', () => {
    const writes = (Object.values(routes) as RouteDef[]).filter(
      (d) => d.path.includes('/audit/') && d.method !== 'GET',
    );
    expect(writes).toEqual([]);
  });

  it('is refused UPDATE, DELETE and TRUNCATE by the database itself', async () => {
    const user = await ctx.newUser();
    await freeze(user.id, true);
    const target = `user:${user.id}`;
    await expect(ctx.db.update(auditLog).set({ action: 'x' }).where(eq(auditLog.target, target))).rejects.toThrow();
    await expect(ctx.db.delete(auditLog).where(eq(auditLog.target, target))).rejects.toThrow();
    await expect(ctx.db.execute(sql`truncate ${auditLog}`)).rejects.toThrow();
    expect((await auditList(`target=${target}`)).items).toMatchObject([{ action: 'user.freeze' }]);
  });
});
