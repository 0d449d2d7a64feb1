import { randomBytes } from 'node:crypto';
import type { Executor } from '../db/client';
import { putSettingOnce } from './settings.queries';

/**
 * A secret shared by every instance: the one configured (`given`), else 32 random bytes (hex)
 * generated on the first start and kept in settings under `name`, so every instance and restart
 * reads the same one.
 */
export async function sharedSecret(db: Executor, name: string, given: string | undefined): Promise<string> {
  if (given) return given;
  return putSettingOnce(db, name, randomBytes(32).toString('hex'));
}
