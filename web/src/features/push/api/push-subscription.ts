import { apiCall, apiRequest } from '../../../lib/api';

/** Push needs a service worker, the Push API and notifications (Safari on iOS: only once installed). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration() {
  const existing = await navigator.serviceWorker.getRegistration();
  if (!existing) throw new Error('no service worker');
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, when notifications are allowed and it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported() || Notification.permission !== 'granted') return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options.applicationServerKey;
  if (!key) return false;
  const bytes = new Uint8Array(key);
  const encoded = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return encoded === publicKey;
}

/**
 * Subscribes this browser and tells the server (in the current language). A subscription made with an
 * older server key (the operator rotated VAPID keys) is replaced, since pushes signed with the new key
 * would be refused for it. Answers the server's message.
 */
export async function enablePush(): Promise<string> {
  const reg = await registration();
  const { publicKey } = await apiCall('pushKey');
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, publicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
  const json = subscription.toJSON();
  const { message } = await apiRequest('pushSubscribe', {
    body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
  });
  return message;
}

/** Forgets this browser's subscription on the server and in the browser. Answers the server's message. */
export async function disablePush(): Promise<string | undefined> {
  const subscription = await currentSubscription();
  if (!subscription) return undefined;
  const { message } = await apiRequest('pushUnsubscribe', { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
  return message;
}
