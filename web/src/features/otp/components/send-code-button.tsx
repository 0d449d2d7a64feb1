import { normalizeUsername, OTP_RESEND_SECONDS, usernameProblem } from '@kamai/contract/constants';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';
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

/**
 * Why Send code is disabled, shown under the code field: nothing typed yet, or a target that is
 * neither a phone number nor an e-mail (rather than a silently greyed-out button).
 */
export function useSendCodeHint(username: string): string | undefined {
  const { t } = useTranslation(['auth', 'errors']);
  if (!username.trim()) return t('auth:hints.sendCodeNeedsTarget');
  return usernameProblem(username) ? t('errors:target_invalid') : undefined;
}

/** Sends a one-time code to `username`; enabled only once the username is a valid phone or e-mail. */
export function SendCodeButton({ username }: { username: string }) {
  const { t } = useTranslation('auth');
  const sendOtp = useSendOtp();
  const target = usernameProblem(username) ? undefined : normalizeUsername(username);
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
