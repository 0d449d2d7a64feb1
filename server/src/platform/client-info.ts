import { DEVICE_ID_HEADER, deviceIdOf, USER_AGENT_MAX } from '@kamai/contract';

/** Where a request came from: the address the app sees (TRUST_PROXY decides), its User-Agent, its device id. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** Null when the header is absent or not an id a client made (junk is ignored, never refused). */
  deviceId: string | null;
}

export function clientInfoOf(request: {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): ClientInfo {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: (Array.isArray(agent) ? agent[0] : agent)?.slice(0, USER_AGENT_MAX) ?? '',
    deviceId: deviceIdOf(request.headers[DEVICE_ID_HEADER]),
  };
}
