import { apiRequest } from '../../../lib/api';

/** Asks the messaging provider for an 8-character pairing code for `phone` (10 digits, the client adds 91). */
export function genPhoneCode(phone: string) {
  return apiRequest('linkedGenPhoneCode', { body: { phone, countryCode: '91' } });
}
