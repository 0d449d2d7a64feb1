import { randomBytes } from 'node:crypto';
import { canonicalIdentity, normalizeUsername, type UserDetail } from '@kamai/contract';
import type { Db } from '../../db/client';
import { ConfigError } from '../../platform/config';
import { isUniqueViolation } from '../../platform/errors';
import { hashPassword } from '../../platform/password';
import { insertWallet } from '../wallet';
import { uniqueInviteCode } from './invite-code';
import * as q from './users.queries';

export function createUsersService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * The caller's own account, found by its session's token hash (one query checks both); undefined
   * when the session is not live (a session read: its route answers `unauthorized`).
   */
  function detail(sessionHash: string): Promise<UserDetail | undefined> {
    return q.findUserDetailBySession(db, sessionHash, now());
  }

  /**
   * Makes sure an operator can log in. With ADMIN_USERNAME and ADMIN_PASSWORD the account is created
   * (or promoted); with neither and no admin in the database, one is generated and its credentials
   * are returned once so `main.ts` can print them.
   */
  async function bootstrapAdmin(options: { username?: string; password?: string }) {
    if (Boolean(options.username) !== Boolean(options.password)) {
      throw new ConfigError('Invalid configuration:\n  ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
    }
    if (options.username && options.password) {
      const username = normalizeUsername(options.username);
      if (!username)
        throw new ConfigError('Invalid configuration:\n  ADMIN_USERNAME: must be an e-mail or Indian mobile');
      const existing = await q.findUserByUsername(db, username);
      if (existing) {
        if (existing.role !== 'admin') await q.setRole(db, existing.id, 'admin');
        return undefined;
      }
      const user = await createUser(username, options.password);
      return user && { username, password: undefined, inviteCode: user.inviteCode, generated: false };
    }
    if (await q.anyAdminExists(db)) return undefined;
    const username = 'admin@kamai.local';
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(username, password);
    return user && { username, password, inviteCode: user.inviteCode, generated: true };
  }

  /** Undefined when another instance starting at the same moment created the account first. */
  async function createUser(username: string, password: string) {
    const passwordHash = await hashPassword(password);
    return db
      .transaction(async (tx) => {
        const user = await q.insertUser(tx, {
          username,
          canonicalIdentity: canonicalIdentity(username),
          passwordHash,
          inviteCode: await uniqueInviteCode(tx),
          role: 'admin',
        });
        await insertWallet(tx, user.id);
        return user;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      });
  }

  return { detail, bootstrapAdmin };
}

export type UsersService = ReturnType<typeof createUsersService>;
