import type { CreditTextPreset, Role } from '@kamai/contract';
import i18n from 'i18next';
import { apiRequest } from '../../../lib/api';
import { useAction } from '../../../lib/use-action';
import { saidProposed, useChangesRefresh } from '../../control';

const invalidate = ['users'];

export function useFreezeUser(userId: number) {
  const refresh = useChangesRefresh();
  return useAction(
    async (frozen: boolean) => saidProposed(await apiRequest('adminUserFreeze', { body: { userId, frozen } })),
    { invalidate, onSuccess: refresh },
  );
}

export function useSetRole(userId: number) {
  const refresh = useChangesRefresh();
  return useAction(async (role: Role) => saidProposed(await apiRequest('adminUserRole', { body: { userId, role } })), {
    invalidate,
    onSuccess: refresh,
  });
}

export function useAddCredit(userId: number, onSuccess: () => void) {
  return useAction(
    async (values: { amount: string; remark: string; userPreset?: CreditTextPreset; userText?: string }) => {
      const result = await apiRequest('adminCreditAdd', { body: { userId, ...values } });
      // Above the threshold nothing is credited yet: say so instead of the plain confirmation.
      return result.data.creditRequest ? { ...result, message: i18n.t('credits.awaiting') } : result;
    },
    { invalidate, onSuccess },
  );
}

export function useResetPassword(userId: number, onSuccess: () => void) {
  return useAction(
    (values: { password: string }) => apiRequest('adminUserResetPassword', { body: { userId, ...values } }),
    { invalidate, onSuccess },
  );
}
