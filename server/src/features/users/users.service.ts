import { randomBytes } from 'node:crypto';
import { canonicalIdentity, type UserDetail } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { isUniqueViolation } from '../../platform/errors';
import { hashPassword } from '../../platform/password';
import { insertWallet } from '../wallet';
import { uniqueInviteCode } from './invite-code';
import { findUserDetailBySession } from './user-detail.hot.queries';
import * as q from './users.queries';

type StaffRole = 'admin' | 'reviewer';
const ROLE_RANK: Record<q.UserRow['role'], number> = { user: 0, reviewer: 1, admin: 2 };

/** A staff account the deployment names, and the variable that holds its password. */
export interface StaffSeed {
  username: string;
  password: string;
  role: StaffRole;
  variable: 'ADMIN_PASSWORD' | 'STAFF_ACCOUNTS';
}

/**
 * What start-up did with one configured account. Only `created` (and `created_elsewhere`, by another
 * instance from the same settings) set the configured password; `promoted` and `unchanged` found the
 * account existing and left its password as it was.
 */
export interface StaffOutcome {
  username: string;
  role: StaffRole;
  variable: StaffSeed['variable'];
  result: 'created' | 'created_elsewhere' | 'promoted' | 'unchanged';
  previousRole?: q.UserRow['role'];
  inviteCode?: string;
}

export interface StaffBootstrap {
  staff: StaffOutcome[];
  /** The admin generated on a database with none (no staff configured), printed once. */
  generated?: { username: string; password: string; inviteCode: string };
}

/** The deployment's staff in the order they are applied: ADMIN_USERNAME first, then STAFF_ACCOUNTS. */
export function staffSeeds(config: {
  ADMIN_USERNAME?: string;
  ADMIN_PASSWORD?: string;
  STAFF_ACCOUNTS: readonly { username: string; password: string; role: StaffRole }[];
}): StaffSeed[] {
  const admin: StaffSeed[] =
    config.ADMIN_USERNAME && config.ADMIN_PASSWORD
      ? [
          {
            username: config.ADMIN_USERNAME,
            password: config.ADMIN_PASSWORD,
            role: 'admin',
            variable: 'ADMIN_PASSWORD',
          },
        ]
      : [];
  return [...admin, ...config.STAFF_ACCOUNTS.map((account) => ({ ...account, variable: 'STAFF_ACCOUNTS' as const }))];
}

export function createUsersService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * The caller's own account, found by its session's token hash (one query checks both); undefined
   * when the session is not live (a session read: its route answers `unauthorized`).
   */
  function detail(sessionHash: string): Promise<UserDetail | undefined> {
    return findUserDetailBySession(db, sessionHash, now());
  }

  /**
   * Makes sure the deployment's staff can log in (docs/decisions/first-admin.md): each configured
   * account (ADMIN_USERNAME, STAFF_ACCOUNTS) is created with its password, or an existing one promoted
   * to its role (never lowered) and its password left as it is; then, with no admin in the database,
   * one is generated and its credentials are returned once so `main.ts` can print them.
   */
  async function bootstrapStaff(seeds: readonly StaffSeed[]): Promise<StaffBootstrap> {
    const staff: StaffOutcome[] = [];
    for (const seed of seeds) staff.push(await ensureStaff(seed));
    if (await q.anyAdminExists(db)) return { staff };
    const username = 'admin@kamai.local';
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(username, password, 'admin');
    return { staff, generated: user && { username, password, inviteCode: user.inviteCode } };
  }

  async function ensureStaff(seed: StaffSeed): Promise<StaffOutcome> {
    const outcome = { username: seed.username, role: seed.role, variable: seed.variable };
    const existing = await q.findUserByUsername(db, seed.username);
    if (!existing) {
      const user = await createUser(seed.username, seed.password, seed.role);
      // Undefined: another instance starting at the same moment created it, from the same settings.
      return user
        ? { ...outcome, result: 'created', inviteCode: user.inviteCode }
        : { ...outcome, result: 'created_elsewhere' };
    }
    if (ROLE_RANK[existing.role] >= ROLE_RANK[seed.role])
      return { ...outcome, result: 'unchanged', previousRole: existing.role };
    await db.transaction(async (tx) => {
      await q.setRole(tx, existing.id, seed.role);
      // The deployment has no account of its own: the row names the account it promoted as the actor.
      await writeAudit(tx, {
        actorId: existing.id,
        action: 'user.role',
        target: `user:${existing.id}`,
        before: { role: existing.role },
        after: { role: seed.role, by: seed.variable },
      });
    });
    return { ...outcome, result: 'promoted', previousRole: existing.role };
  }

  /** Undefined when another instance starting at the same moment created the account first. */
  async function createUser(username: string, password: string, role: StaffRole) {
    const passwordHash = await hashPassword(password);
    return db
      .transaction(async (tx) => {
        const user = await q.insertUser(tx, {
          username,
          canonicalIdentity: canonicalIdentity(username),
          passwordHash,
          inviteCode: await uniqueInviteCode(tx),
          role,
        });
        await insertWallet(tx, user.id);
        return user;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      });
  }

  return { detail, bootstrapStaff };
}

export type UsersService = ReturnType<typeof createUsersService>;
