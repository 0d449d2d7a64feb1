import type { Role } from '@kamai/contract';
import { apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';

const invalidate = ['users'];

export function useFreezeUser(userId: number) {
  return useAction((frozen: boolean) => apiRequest('adminUserFreeze', { body: { userId, frozen } }), { invalidate });
}

export function useSetRole(userId: number) {
  return useAction((role: Role) => apiRequest('adminUserRole', { body: { userId, role } }), { invalidate });
}

export function useAddRevenue(userId: number, onSuccess: () => void) {
  return useAction(
    (values: { amount: string; remark: string }) => apiRequest('adminRevenueAdd', { body: { userId, ...values } }),
    { invalidate, onSuccess },
  );
}

export function useResetPassword(userId: number, onSuccess: () => void) {
  return useAction(
    (values: { password: string }) => apiRequest('adminUserResetPassword', { body: { userId, ...values } }),
    { invalidate, onSuccess },
  );
}
