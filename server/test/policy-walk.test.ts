import { type RouteDef, rolesOf, routes } from '@kamai/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { createTestContext, type TestContext } from './helpers';

/**
 * Walks the whole route table, so a route added later is covered without touching this file: every
 * admin route refuses anonymous callers (401), users (403), frozen staff (403), and reviewers unless it
 * names them; and it lets in each role it names.
 */
const adminRoutes = (Object.entries(routes) as [string, RouteDef][]).filter(([, def]) => def.policy === 'admin');

let ctx: TestContext;
const tokens = { user: '', reviewer: '', frozenAdmin: '', admin: '' };

beforeAll(async () => {
  ctx = await createTestContext();
  tokens.admin = await ctx.adminToken();
  tokens.user = (await ctx.newUser()).token;
  const reviewer = await ctx.newUser();
  await ctx.db.update(users).set({ role: 'reviewer' }).where(eq(users.id, reviewer.id));
  tokens.reviewer = reviewer.token;
  const frozen = await ctx.newUser();
  await ctx.db.update(users).set({ role: 'admin', frozen: true }).where(eq(users.id, frozen.id));
  tokens.frozenAdmin = frozen.token;
});
afterAll(async () => {
  await ctx.close();
});

/** Calls a route with dummy path parameters and an empty body; only the policy's answer matters. */
async function call(def: RouteDef, token?: string) {
  const res = await ctx.app.inject({
    method: def.method,
    url: def.path.replace(/:(\w+)/g, '1'),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(def.method === 'GET' ? {} : { payload: {} }),
  });
  const json = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : undefined;
  return { status: res.statusCode, key: json?.key as string | undefined };
}

describe('the policy walk over every admin route', () => {
  it('finds the admin routes of the table', () => {
    expect(adminRoutes.length).toBeGreaterThan(15);
  });

  it.each(adminRoutes)('%s: 401 without a token, 403 for a user and for a frozen admin', async (_name, def) => {
    expect(await call(def)).toEqual({ status: 401, key: 'unauthorized' });
    expect(await call(def, tokens.user)).toEqual({ status: 403, key: 'forbidden' });
    expect(await call(def, tokens.frozenAdmin)).toEqual({ status: 403, key: 'account_frozen' });
  });

  it.each(adminRoutes)('%s: a reviewer is refused unless the route names reviewers', async (_name, def) => {
    const res = await call(def, tokens.reviewer);
    if (!rolesOf(def).includes('reviewer')) {
      expect(res).toEqual({ status: 403, key: 'forbidden' });
    } else if (def.method === 'GET') {
      // Let in: whatever the dummy query makes of it (200, 400, 404), it is not a refusal.
      expect([401, 403]).not.toContain(res.status);
    } else {
      // A write that names reviewers lets them past the policy: the empty body is then refused by the
      // route's own validation (so nothing acts), not by the policy.
      expect(res.status).toBe(400);
      expect(res.key).not.toBe('forbidden');
    }
  });

  // Only reads: a write with an empty body could act (the refusals above stop before any handler).
  it.each(adminRoutes.filter(([, def]) => def.method === 'GET'))('%s: an admin is let in', async (_name, def) => {
    expect([401, 403]).not.toContain((await call(def, tokens.admin)).status);
  });
});
