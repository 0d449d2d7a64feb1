import { OTP_TYPE } from '@kamai/contract/constants';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export function sendOtp(target: string) {
  return apiRequest('otpSend', { body: { target, type: OTP_TYPE } });
}

export function useSendOtp() {
  return useMutation({ mutationFn: sendOtp });
}
