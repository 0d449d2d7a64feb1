import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../src/db/schema';
import { resetAdminFromHost } from '../src/features/admin';
import { createTestContext, type TestContext } from './helpers';

const operator = { host: 'kamai-host', osUser: 'ops' };
const LOGIN = '/go_user/api/v1/common/user/login';

describe('the host reset of a lost admin password (npm run admin:reset)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('gives the only admin a new password, ends its sessions and audits who did it from where', async () => {
    const before = await ctx.adminToken();
    const result = await resetAdminFromHost(ctx.db, { username: ctx.admin.username.toUpperCase(), operator });
    if (!result.ok) throw new Error(result.reason);
    expect(result.sessionsEnded).toBe(1);
    expect((await ctx.get('/go_user/api/v1/admin/control/list', { token: before })).status).toBe(401);
    const old = await ctx.post(LOGIN, { username: ctx.admin.username, password: ctx.admin.password });
    expect(old.status).not.toBe(200);
    const fresh = await ctx.post(LOGIN, { username: ctx.admin.username, password: result.password });
    expect(fresh.status).toBe(200);
    const [row] = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.resetpass'), eq(auditLog.target, `user:${result.userId}`)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(row?.actorId).toBe(result.userId);
    expect(row?.after).toEqual({ by: 'host', host: 'kamai-host', osUser: 'ops', sessionsEnded: 1 });
    expect(JSON.stringify(row)).not.toContain(result.password);
    ctx.admin.password = result.password;
  });

  it('refuses users, reviewers and unknown names, and changes no password', async () => {
    const user = await ctx.newUser();
    const reviewer = await ctx.newUser();
    await ctx.db.update(users).set({ role: 'reviewer' }).where(eq(users.id, reviewer.id));
    for (const [name, reason] of [
      [user.username, /is a user, not an admin/],
      [reviewer.username, /is a reviewer, not an admin/],
      ['nobody@example.in', /no account named nobody@example.in/],
    ] as const) {
      const result = await resetAdminFromHost(ctx.db, { username: name, operator });
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
    }
    expect((await ctx.post(LOGIN, { username: user.username, password: user.password })).status).toBe(200);
    expect((await ctx.post(LOGIN, { username: reviewer.username, password: reviewer.password })).status).toBe(200);
  });

  it('refuses while another active admin exists: one person never holds two admin accounts', async () => {
    await ctx.coAdmin();
    const result = await resetAdminFromHost(ctx.db, { username: ctx.admin.username, operator });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/another active admin exists/) });
    expect((await ctx.post(LOGIN, { username: ctx.admin.username, password: ctx.admin.password })).status).toBe(200);
  });
});
