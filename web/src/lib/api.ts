import { createApiClient, createTokenStore } from '@kamai/client';
import { useSyncExternalStore } from 'react';
import { currentLocale, i18n } from '../i18n';

/** The user's session (the console keeps its own under `kamai.admin.token`). */
const tokens = createTokenStore('kamai.token');

export const { get: getToken, set: setToken, clear: clearToken } = tokens;

export const { apiRequest, apiCall, messageOf, onSessionEnded } = createApiClient({
  tokens,
  locale: currentLocale,
  clientMessage: (key) => i18n.t(`common:request.${key}`),
});

/** The session token, re-rendering on login and logout. */
export function useToken(): string | null {
  return useSyncExternalStore(tokens.subscribe, tokens.get);
}

export function useIsLoggedIn(): boolean {
  return useToken() !== null;
}
