import { channelOfTarget, normalizeUsername, OTP_RESEND_SECONDS, usernameProblem } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useOtpChannels } from '../api/get-otp-channels';
import { useSendOtp } from '../api/send-otp';

/** When each target may get a new code (ms); kept outside React so reopening the dialog keeps the countdown. */
const resendAt = new Map<string, number>();

function secondsLeft(target: string | undefined): number {
  const at = target ? resendAt.get(target) : undefined;
  return at ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : 0;
}

function useSecondsLeft(target: string | undefined): [number, () => void] {
  const [seconds, setSeconds] = useState(() => secondsLeft(target));
  useEffect(() => {
    setSeconds(secondsLeft(target));
    const timer = setInterval(() => setSeconds(secondsLeft(target)), 1000);
    return () => clearInterval(timer);
  }, [target]);
  const start = () => {
    if (!target) return;
    resendAt.set(target, Date.now() + OTP_RESEND_SECONDS * 1000);
    setSeconds(OTP_RESEND_SECONDS);
  };
  return [seconds, start];
}

/** The target a code may go to: a valid phone or e-mail on a channel this service uses, else undefined. */
function useCodeTarget(username: string): { target?: string; disabled?: 'otp_sms_disabled' | 'otp_email_disabled' } {
  const channels = useOtpChannels();
  const target = usernameProblem(username) ? undefined : normalizeUsername(username);
  if (!target) return {};
  const channel = channelOfTarget(target);
  if (!channels.includes(channel)) return { disabled: channel === 'sms' ? 'otp_sms_disabled' : 'otp_email_disabled' };
  return { target };
}

/**
 * Why Send code is disabled, shown under the code field: nothing typed yet, a target that is neither a
 * phone number nor an e-mail, or one on a channel this service does not use (rather than a silently
 * greyed-out button).
 */
export function useSendCodeHint(username: string): string | undefined {
  const { t } = useTranslation(['auth', 'errors']);
  const { disabled } = useCodeTarget(username);
  const channels = useOtpChannels();
  if (!username.trim()) {
    if (channels.length > 1) return t('auth:hints.sendCodeNeedsTarget');
    return t(
      channels[0] === 'sms' ? 'auth:channelOnly.sms.sendCodeNeedsTarget' : 'auth:channelOnly.email.sendCodeNeedsTarget',
    );
  }
  if (disabled) return t(`errors:${disabled}`);
  return usernameProblem(username) ? t('errors:target_invalid') : undefined;
}

/** Sends a one-time code to `username`; enabled only once it is a valid phone or e-mail on a channel in use. */
export function SendCodeButton({ username }: { username: string }) {
  const { t } = useTranslation('auth');
  const sendOtp = useSendOtp();
  const { target } = useCodeTarget(username);
  const [seconds, startCountdown] = useSecondsLeft(target);

  const send = async () => {
    if (!target) return;
    try {
      const { message } = await sendOtp.mutateAsync(target);
      startCountdown();
      toastSuccess(message);
    } catch (error) {
      toastError(messageOf(error));
    }
  };

  return (
    <Button
      className="send-code-button"
      type="button"
      size="small"
      color="primary"
      fill="outline"
      disabled={!target || seconds > 0}
      loading={sendOtp.isPending}
      onClick={send}
    >
      {seconds > 0 ? t('resendIn', { seconds }) : t('sendCode')}
    </Button>
  );
}
