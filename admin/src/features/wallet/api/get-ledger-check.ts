import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

/** The ledger's invariants and money rules, checked by the server each time the page asks. */
export function useLedgerCheck() {
  return useQuery({ queryKey: ['ledger-check'], queryFn: () => apiCall('adminLedgerCheck') });
}
