/**
 * Registers the service worker (web/sw/sw.ts) in production builds. A new deploy's worker takes over
 * as soon as it has cached the new build; this page then reloads into it at a quiet moment: when the
 * user next changes page, or at once if the tab is in the background, so no half-filled form is lost.
 */
let updateReady = false;

export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  // The first worker claiming this page is not an update: nothing to reload into.
  const hadController = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (!hadController) return;
    updateReady = true;
    if (document.visibilityState === 'hidden') window.location.reload();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden' && updateReady) window.location.reload();
    // Coming back to a long-open tab: look for a new deploy (browsers also look on each navigation).
    if (document.visibilityState === 'visible') void container.getRegistration().then((r) => r?.update());
  });
  // A lazy page of the old build that the new one no longer has: load the new build instead.
  window.addEventListener('vite:preloadError', (event) => {
    event.preventDefault();
    window.location.reload();
  });
  window.addEventListener('load', () => {
    container.register('/sw.js').catch(() => {
      // No worker (private mode, blocked by policy): the app works online as before.
    });
  });
}

/** Called on each change of page: moves to the new build when one is waiting. */
export function reloadIfUpdated() {
  if (updateReady) window.location.reload();
}
