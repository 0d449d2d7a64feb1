import { type RouteName, rolesOf, routes, type StaffRole, type UserDetail } from '@kamai/contract';
import { createContext, useContext } from 'react';

export const MeContext = createContext<UserDetail | null>(null);

export function useMe(): UserDetail {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the logged-in console');
  return me;
}

/** Whether `role` may call the route, by the route table's own `roles`. */
export function allowed(role: string, name: RouteName): boolean {
  return rolesOf(routes[name]).includes(role as StaffRole);
}

export function useCan(): (name: RouteName) => boolean {
  const me = useMe();
  return (name) => allowed(me.role, name);
}
