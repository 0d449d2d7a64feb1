import type { RouteName, StaffRole, UserDetail } from '@kamai/contract';
import { staffRolesOf } from '@kamai/contract/route-roles';
import { createContext, useContext } from 'react';

export const MeContext = createContext<UserDetail | null>(null);

export function useMe(): UserDetail {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the logged-in console');
  return me;
}

/** Whether `role` may call the route, by its roles (the route table's, without its schemas: route-roles.ts). */
export function allowed(role: string, name: RouteName): boolean {
  return staffRolesOf(name).includes(role as StaffRole);
}

export function useCan(): (name: RouteName) => boolean {
  const me = useMe();
  return (name) => allowed(me.role, name);
}
