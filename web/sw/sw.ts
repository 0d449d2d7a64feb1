/// <reference lib="webworker" />
/**
 * The user app's service worker (docs/decisions/offline-app.md): precaches the app shell and every hashed asset of the
 * build, so the app opens offline; answers navigations with the cached shell; shows pushes. API
 * answers are never cached: only navigations and the precached files are handled here, and
 * navigations to the API, the docs, metrics, uploads and the console go straight to the network.
 */
import type { PushMessage } from '@kamai/contract';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Paths the shell never answers for: they belong to the server (spec paths and operator tools). */
const NETWORK_ONLY = [
  /^\/go_user\//,
  /^\/obj\//,
  /^\/docs(\/|$)/,
  /^\/metrics(\/|$)/,
  /^\/admin(\/|$)/,
  /^\/uploads\//,
];

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NETWORK_ONLY }));

// A new build takes over at once; the page reloads itself at a quiet moment (src/app/service-worker.ts).
self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const message = readMessage(event.data);
  if (!message) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = typeof event.notification.data?.url === 'string' ? event.notification.data.url : '/';
  // Only paths of this app: a message cannot send the user elsewhere.
  const target = new URL(path.startsWith('/') && !path.startsWith('//') ? path : '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(target);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});

function readMessage(data: PushMessageData | null): PushMessage | undefined {
  try {
    const value = data?.json() as Partial<PushMessage> | undefined;
    if (typeof value?.title !== 'string') return undefined;
    return {
      title: value.title,
      body: typeof value.body === 'string' ? value.body : '',
      url: typeof value.url === 'string' ? value.url : '/',
      tag: typeof value.tag === 'string' ? value.tag : 'kamai',
    };
  } catch {
    return undefined;
  }
}
