import { describe, expect, it } from 'vitest';
import { type RouteDef, routes } from './routes';

const POLICIES = new Set(['public', 'user', 'admin']);
const entries = Object.entries(routes) as [string, RouteDef][];
const COMMON_USER_ROUTES = new Set(['noticeList', 'noticeDetail']);

describe('the route table', () => {
  it.each(entries)('%s declares a known policy', (_name, def) => {
    expect(POLICIES.has(def.policy)).toBe(true);
  });

  it('has one entry per method and path', () => {
    const keys = entries.map(([, def]) => `${def.method} ${def.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(entries)('%s names roles only as an admin route, and always lets admins in', (_name, def) => {
    if (def.roles === undefined) return;
    expect(def.policy).toBe('admin');
    expect(def.roles).toContain('admin');
    for (const role of def.roles) expect(['admin', 'reviewer']).toContain(role);
  });

  it('puts user routes under /user/ and admin routes under /admin/', () => {
    for (const [name, def] of entries) {
      if (def.path.startsWith('/go_user/api/v1/user/')) expect(def.policy).toBe('user');
      if (def.path.startsWith('/go_user/api/v1/admin/')) expect(def.policy).toBe('admin');
      // The notice list carries the caller's own notifications and read state (docs/decisions/notices-and-notifications.md).
      const expected = COMMON_USER_ROUTES.has(name) ? 'user' : 'public';
      if (def.path.startsWith('/go_user/api/v1/common/')) expect(def.policy).toBe(expected);
    }
  });
});
