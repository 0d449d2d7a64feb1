import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export function getQrCode() {
  return apiCall('linkedGetQrCode');
}

export function getQrStatus(id: string, signal?: AbortSignal) {
  return apiCall('linkedQrStatus', { query: { id }, signal });
}

/** How often the page asks whether the QR code was scanned. */
export const QR_POLL_MS = 2000;

export function qrStatusQueryOptions(id: string | undefined) {
  return queryOptions({
    queryKey: ['linked', 'qr-status', id] as const,
    queryFn: ({ signal }) => getQrStatus(id ?? '', signal),
    enabled: id !== undefined,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.state === 'pending' || !query.state.data ? QR_POLL_MS : false),
  });
}

/** The state of one QR pairing, asked every 2 s until it is linked or expired. */
export function useQrStatus(id: string | undefined) {
  return useQuery(qrStatusQueryOptions(id));
}
