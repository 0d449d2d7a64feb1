import { OTP_CHANNELS, type OtpChannel } from '@kamai/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/api';

export const otpChannelsKey = ['otp', 'channels'] as const;

/**
 * The channels this service sends codes to (the server's SIGNUP_CHANNELS): both until the answer is in,
 * then only the configured ones. The server refuses a code on any other channel all the same.
 */
export function useOtpChannels(): readonly OtpChannel[] {
  const { data } = useQuery({
    queryKey: otpChannelsKey,
    queryFn: ({ signal }) => apiCall('otpChannels', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data?.channels ?? OTP_CHANNELS;
}
