import { describe, expect, it } from 'vitest';
import type { endpoints } from './endpoints';
import { rolesOf } from './route-def';
import { REVIEWER_ROUTES, staffRolesOf } from './route-roles';
import { routes } from './routes';

describe('route roles', () => {
  it('lets in on every route the roles the route table names', () => {
    for (const [name, route] of Object.entries(routes)) {
      expect(staffRolesOf(name as keyof typeof endpoints), `${name}: route-roles.ts disagrees with its route`).toEqual(
        rolesOf(route),
      );
    }
  });

  it('lists each reviewer route once, and only routes that exist', () => {
    expect(new Set(REVIEWER_ROUTES).size).toBe(REVIEWER_ROUTES.length);
    for (const name of REVIEWER_ROUTES) expect(name in routes, name).toBe(true);
  });
});
