import { createApiClient, createTokenStore } from '@kamai/client';
import { useSyncExternalStore } from 'react';
import { currentLocale, i18n } from '../i18n';

/** The console's session, kept apart from the user app's (`kamai.token`): an operator may use both. */
const tokens = createTokenStore('kamai.admin.token');

export const { get: getToken, set: setToken, clear: clearToken } = tokens;

export const { apiRequest, apiCall, apiFile, messageOf, onSessionEnded } = createApiClient({
  tokens,
  locale: currentLocale,
  clientMessage: (key) => i18n.t(`request.${key}`),
});

/** The session token, re-rendering on login and logout. */
export function useToken(): string | null {
  return useSyncExternalStore(tokens.subscribe, tokens.get);
}
