import { randomBytes } from 'node:crypto';
import { normalizeUsername } from '@kamai/contract';
import type { Db } from '../../db/client';
import { countOtherActiveAdmins } from '../../platform/control-changes.queries';
import { hashPassword } from '../../platform/password';
import * as q from './admin-users.queries';
import { applyNewPassword } from './new-password';

/** Who ran the reset: the host's name and the operating-system user, for the audit row. */
export interface HostOperator {
  host: string;
  osUser: string;
}

export type HostResetResult =
  | { ok: true; userId: number; username: string; password: string; sessionsEnded: number }
  | { ok: false; reason: string };

/**
 * A new password for the only active admin, set from a shell on the server's host
 * (`npm run admin:reset -w server -- <username>`) when the printed one is lost and no one-time code
 * can reach the account. The host is full trust already; what this must not do is let one person
 * hold two admin accounts: with another active admin the reset is refused (that admin, or the
 * one-time-code reset, helps), and so it is for reviewers, users, frozen and deleted accounts.
 * Every reset is audited (`user.resetpass`, `after.by: "host"`) and ends the account's sessions.
 * docs/decisions/host-password-reset.md.
 */
export async function resetAdminFromHost(
  db: Db,
  input: { username: string; operator: HostOperator },
): Promise<HostResetResult> {
  const username = normalizeUsername(input.username) ?? input.username.trim().toLowerCase();
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [found] = await q.lockUsersByUsername(tx, [username]);
    if (!found || found.deletedAt) return { ok: false, reason: `no account named ${username}` };
    if (found.role !== 'admin')
      return {
        ok: false,
        reason: `${username} is a ${found.role}, not an admin: an admin resets a user's password in the console; staff reset their own by one-time code`,
      };
    if (found.frozen)
      return { ok: false, reason: `${username} is frozen: lifting a freeze needs a second admin (dual control)` };
    if ((await countOtherActiveAdmins(tx, found.id)) > 0)
      return {
        ok: false,
        reason: `another active admin exists: ask them, or reset by one-time code (Forgot password). A reset from the host would let one person hold two admin accounts`,
      };
    // The deployment has no actor of its own: the account is the actor, as for STAFF_ACCOUNTS promotions.
    const sessionsEnded = await applyNewPassword(tx, {
      user: found,
      passwordHash,
      actorId: found.id,
      after: { by: 'host', host: input.operator.host, osUser: input.operator.osUser },
    });
    return { ok: true, userId: found.id, username: found.username, password, sessionsEnded };
  });
}
