import type { Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { notify } from '../../platform/notifications.queries';
import { deleteUserSessions } from '../../platform/sessions.queries';
import { clearLoginAttempts } from '../auth';
import { updatePassword } from '../users';

/**
 * A password set for someone, by an operator or from the host: the new hash, every session ended, the
 * login locks cleared, one `user.resetpass` audit row and the user told, in the caller's transaction.
 */
export async function applyNewPassword(
  tx: Tx,
  input: {
    user: { id: number; username: string };
    passwordHash: string;
    actorId: number;
    after: Record<string, unknown>;
    requestId?: string;
  },
): Promise<number> {
  const { user } = input;
  await updatePassword(tx, user.id, input.passwordHash);
  const sessionsEnded = await deleteUserSessions(tx, user.id);
  await clearLoginAttempts(tx, user.username);
  const auditId = await writeAudit(tx, {
    actorId: input.actorId,
    action: 'user.resetpass',
    target: `user:${user.id}`,
    after: { ...input.after, sessionsEnded },
    ...(input.requestId === undefined ? {} : { requestId: input.requestId }),
  });
  await notify(tx, {
    userId: user.id,
    kind: 'password_changed',
    params: {},
    dedupeKey: `password:${user.id}:${auditId}`,
  });
  return sessionsEnded;
}
