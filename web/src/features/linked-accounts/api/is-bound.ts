import { apiCall } from '../../../lib/api';

/** Whether `phone` is linked to the caller, and whether a pairing for it is still waiting. */
export function isBound(phone: string, signal?: AbortSignal) {
  return apiCall('linkedIsBound', { params: { phone }, signal });
}
