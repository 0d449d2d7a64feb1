import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function settleLinked(phone: string) {
  return apiRequest('linkedSettlement', { params: { phone } });
}

/** Settles a number's online time into the wallet: balance, income records and the list all refetch. */
export function useSettleLinked() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: settleLinked, onSuccess: () => queryClient.invalidateQueries() });
}
