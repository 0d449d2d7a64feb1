import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/api';
import { toastError, toastSuccess } from '../../../lib/toast';
import { currentSubscription, disablePush, enablePush, pushSupported } from '../api/push-subscription';

/** Sent once per page load when the switch finds this browser subscribed: keeps the server's copy and language current. */
let refreshed = false;

/**
 * The Profile's "Push notifications" switch: turning it on asks the browser for permission and
 * subscribes this device; off unsubscribes it. A native checkbox with the switch role keeps the
 * first page light (no switch component from the UI kit).
 */
export function PushSwitch() {
  const { t } = useTranslation();
  const supported = pushSupported();
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(supported);
  const [blocked, setBlocked] = useState(supported && Notification.permission === 'denied');

  useEffect(() => {
    if (!supported) return;
    let live = true;
    currentSubscription()
      .then(async (subscription) => {
        if (!live) return;
        setOn(subscription !== null);
        if (subscription && !refreshed) {
          refreshed = true;
          await enablePush();
        }
      })
      .catch(() => undefined)
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
    };
  }, [supported]);

  async function toggle(next: boolean) {
    setBusy(true);
    try {
      if (next) {
        const permission = await Notification.requestPermission();
        if (permission !== 'granted') {
          setBlocked(permission === 'denied');
          toastError(t('push.blocked'));
          return;
        }
        toastSuccess(await enablePush());
        setOn(true);
      } else {
        const message = await disablePush();
        if (message) toastSuccess(message);
        setOn(false);
      }
    } catch (error) {
      toastError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const hint = !supported ? t('push.unsupported') : blocked ? t('push.blocked') : t('push.hint');
  return (
    <label className="card push-switch row">
      <span className="stack push-switch-text">
        <span className="push-switch-label">{t('push.label')}</span>
        <span className="push-switch-hint muted text-12">{hint}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        className="switch flex-none"
        checked={on}
        aria-checked={on}
        disabled={!supported || busy}
        onChange={(event) => void toggle(event.target.checked)}
      />
    </label>
  );
}
