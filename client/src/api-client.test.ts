import { DEVICE_ID_HEADER, DEVICE_ID_STORAGE_KEY } from '@kamai/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, urlOf } from './api-client';
import { ApiError } from './api-error';
import { resetDeviceIdCache } from './device-id';
import { createTokenStore } from './token-store';

/** localStorage as a browser keeps it, for Node. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('urlOf', () => {
  it('adds the set query values and leaves out empty ones', () => {
    expect(urlOf('/a', { limit: 20, cursor: undefined, q: '', frozen: false })).toBe('/a?limit=20&frozen=false');
    expect(urlOf('/a', {})).toBe('/a');
  });
});

describe('createTokenStore', () => {
  it('keeps each app’s session under its own key', () => {
    const web = createTokenStore('kamai.token');
    web.set('user-token');
    const admin = createTokenStore('kamai.admin.token');
    expect(admin.get()).toBeNull();
    admin.set('staff-token');
    expect([localStorage.getItem('kamai.token'), localStorage.getItem('kamai.admin.token')]).toEqual([
      'user-token',
      'staff-token',
    ]);
    expect(createTokenStore('kamai.token').get()).toBe('user-token');
  });
});

describe('createApiClient', () => {
  function client() {
    const tokens = createTokenStore('test.token');
    const api = createApiClient({ tokens, locale: () => 'hi_IN', clientMessage: (key) => `client:${key}` });
    return { tokens, api };
  }

  it('sends the token and language, and answers the data with the server message', async () => {
    const fetch = vi.fn(async () =>
      answer(200, { code: 200, message: 'ठीक है', key: 'ok', data: { count: 3, notices: 1, notifications: 2 } }),
    );
    vi.stubGlobal('fetch', fetch);
    const { tokens, api } = client();
    tokens.set('abc');
    expect(await api.apiRequest('noticeUnread')).toEqual({
      data: { count: 3, notices: 1, notifications: 2 },
      message: 'ठीक है',
      key: 'ok',
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/go_user/api/v1/user/notice/unread');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer abc', 'Accept-Language': 'hi_IN' });
  });

  it('sends one device id per browser, made once and kept in localStorage', async () => {
    resetDeviceIdCache();
    const fetch = vi.fn(async () => answer(200, { code: 200, message: 'ok', key: 'ok', data: null }));
    vi.stubGlobal('fetch', fetch);
    const { api } = client();
    await api.apiRequest('noticeUnread');
    await client().api.apiRequest('noticeUnread');
    const sent = fetch.mock.calls.map(
      (call) => ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)[DEVICE_ID_HEADER],
    );
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);
    expect(localStorage.getItem(DEVICE_ID_STORAGE_KEY)).toBe(sent[0]);
    // A later page load reads the stored id; a tampered one is replaced.
    resetDeviceIdCache();
    await api.apiRequest('noticeUnread');
    expect((fetch.mock.calls[2] as unknown as [string, RequestInit])[1].headers).toMatchObject({
      [DEVICE_ID_HEADER]: sent[0],
    });
    localStorage.setItem(DEVICE_ID_STORAGE_KEY, '<junk>');
    resetDeviceIdCache();
    await api.apiRequest('noticeUnread');
    const replaced = ((fetch.mock.calls[3] as unknown as [string, RequestInit])[1].headers as Record<string, string>)[
      DEVICE_ID_HEADER
    ];
    expect(replaced).not.toBe('<junk>');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ends the stored session on a 401 and tells the listeners', async () => {
    vi.stubGlobal('fetch', async () => answer(401, { code: 401, message: 'Log in', key: 'unauthorized', data: null }));
    const { tokens, api } = client();
    tokens.set('stale');
    const ended = vi.fn();
    api.onSessionEnded(ended);
    const error = await api.apiCall('noticeUnread').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 401, key: 'unauthorized', message: 'Log in' });
    expect(tokens.get()).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('turns an answer without the envelope into a translated client error', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const { api } = client();
    const error = await api.apiCall('noticeUnread').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 502, key: 'failed', message: 'client:failed' });
    expect(api.messageOf(new Error('x'))).toBe('client:failed');
  });

  it('answers a file route as a Blob and throws its refusal envelope like any call', async () => {
    const fetch = vi.fn(async () => new Response('id,username\n1,ravi\n', { headers: { 'content-type': 'text/csv' } }));
    vi.stubGlobal('fetch', fetch);
    const { tokens, api } = client();
    tokens.set('staff');
    const file = await api.apiFile('adminExportUsers', { query: { from: '2026-01-01' } });
    expect(await file.text()).toBe('id,username\n1,ravi\n');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/go_user/api/v1/admin/export/users.csv?from=2026-01-01');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer staff', Accept: 'text/csv, application/json' });

    vi.stubGlobal('fetch', async () => answer(401, { code: 401, message: 'Log in', key: 'unauthorized', data: null }));
    const ended = vi.fn();
    api.onSessionEnded(ended);
    const error = await api.apiFile('adminExportUsers', { query: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 401, key: 'unauthorized', message: 'Log in' });
    expect(tokens.get()).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);

    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    expect(await api.apiFile('adminExportUsers', { query: {} }).catch((e: unknown) => e)).toMatchObject({
      code: 502,
      key: 'failed',
    });
  });
});
