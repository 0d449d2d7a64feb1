import type { Executor } from '../../db/client';
import type { ClientInfo } from '../../platform/client-info';
import { addressKey } from './fraud.address';
import { insertClientSignal } from './fraud.queries';

/** Records a registration's or a login's client beside the user. */
export function recordClient(db: Executor, userId: number, kind: 'register' | 'login', client: ClientInfo) {
  return insertClientSignal(db, {
    userId,
    kind,
    ip: client.ip,
    addressKey: addressKey(client.ip),
    userAgent: client.userAgent,
    deviceId: client.deviceId,
  });
}
