import {
  ADMIN_DETAIL_MOVEMENTS,
  type AdminUserDetail,
  type AdminUserRow,
  formatRupees,
  INVITE_TREE_LEVEL1_MAX,
  INVITE_TREE_LEVEL2_MAX,
  type PageQuery,
  type Role,
} from '@kamai/contract';
import type { Db, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { refuseCommonPassword } from '../../platform/common-passwords';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { notify } from '../../platform/notifications.queries';
import { hashPassword } from '../../platform/password';
import type { Actor } from '../../platform/routes';
import { deleteUserSessions } from '../../platform/sessions.queries';
import { clearLoginAttempts } from '../auth';
import { countInvitees } from '../referrals';
import { updatePassword } from '../users';
import { findUserAccountId, listEntries } from '../wallet';
import * as q from './admin-users.queries';

type ListQuery = PageQuery & Omit<q.UserFilter, 'search' | 'beforeId' | 'limit'> & { q?: string };

function toRow(row: q.UserRowRecord): AdminUserRow {
  return {
    id: row.id,
    username: row.username,
    inviteCode: row.inviteCode,
    role: row.role,
    frozen: row.frozen,
    deleted: row.deletedAt !== null,
    createdAt: row.createdAt.toISOString(),
    balance: formatRupees(BigInt(row.balance)),
    hold: formatRupees(BigInt(row.hold)),
    inviter: row.inviterId === null ? null : { id: row.inviterId, username: row.inviterUsername ?? '' },
    inviteeCount: row.inviteeCount,
    totalEarned: formatRupees(BigInt(row.totalEarned)),
    totalWithdrawn: formatRupees(BigInt(row.totalWithdrawn)),
  };
}

export function createAdminUsersService({ db }: { db: Db }) {
  async function list(query: ListQuery) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await q.listUserRows(db, {
      search: query.q || undefined,
      role: query.role,
      frozen: query.frozen,
      inviterId: query.inviterId,
      joinedFrom: query.joinedFrom,
      joinedTo: query.joinedTo,
      beforeId,
      limit: query.limit + 1,
    });
    const page = keysetPage(rows, query.limit, (row) => row.id);
    return { items: page.items.map(toRow), nextCursor: page.nextCursor };
  }

  async function detail(userId: number): Promise<AdminUserDetail> {
    const row = await q.findUserRow(db, userId);
    if (!row) throw new AppError('user_not_found');
    const walletId = await findUserAccountId(db, userId, 'wallet');
    const movements = walletId === undefined ? [] : await listEntries(db, walletId, ADMIN_DETAIL_MOVEMENTS);
    const level1 = await q.listTreeLevel1(db, userId, INVITE_TREE_LEVEL1_MAX);
    const level2 = await q.listTreeLevel2(
      db,
      level1.map((u) => u.id),
      INVITE_TREE_LEVEL2_MAX,
    );
    const treeUser = (u: (typeof level1)[number]) => ({
      id: u.id,
      username: u.username,
      role: u.role,
      frozen: u.frozen,
      createdAt: u.createdAt.toISOString(),
      inviteeCount: u.inviteeCount,
    });
    return {
      user: toRow(row),
      movements: movements.map((m) => ({
        id: m.id,
        type: m.type,
        amount: formatRupees(m.amount),
        balanceAfter: formatRupees(m.balanceAfter ?? 0n),
        createdAt: m.createdAt.toISOString(),
        ref: m.ref,
      })),
      inviteTree: {
        count: await countInvitees(db, userId),
        items: level1.map((u) => ({
          ...treeUser(u),
          invitees: level2.filter((v) => v.parentId === u.id).map(treeUser),
        })),
      },
    };
  }

  /**
   * Locks the actor's and the target's rows, then checks that the actor is still an active admin: two
   * admins demoting or freezing each other at once leave one of them an admin, never none. A deleted
   * account is refused whole (409 `account_deleted_final`).
   */
  async function lockForChange(tx: Tx, actor: Actor, userId: number) {
    if (userId === actor.id) throw new AppError('cannot_change_own_account');
    const rows = await q.lockUsers(tx, [actor.id, userId]);
    const me = rows.find((r) => r.id === actor.id);
    const target = rows.find((r) => r.id === userId);
    if (me?.role !== 'admin' || me.frozen) throw new AppError('forbidden');
    if (!target) throw new AppError('user_not_found');
    // A deleted account is final (issue 22): no unfreezing, promoting or new password revives it.
    if (target.deletedAt) throw new AppError('account_deleted_final');
    return target;
  }

  async function rowOf(tx: Tx, userId: number) {
    const row = await q.findUserRow(tx, userId);
    if (!row) throw new AppError('user_not_found');
    return toRow(row);
  }

  async function freeze(actor: Actor, input: { userId: number; frozen: boolean }) {
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      await q.updateUser(tx, input.userId, { frozen: input.frozen });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'user.freeze',
        target: `user:${input.userId}`,
        before: { frozen: target.frozen },
        after: { frozen: input.frozen },
        requestId: actor.requestId,
      });
      return rowOf(tx, input.userId);
    });
  }

  async function setRole(actor: Actor, input: { userId: number; role: Role }) {
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      await q.updateUser(tx, input.userId, { role: input.role });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'user.role',
        target: `user:${input.userId}`,
        before: { role: target.role },
        after: { role: input.role },
        requestId: actor.requestId,
      });
      return rowOf(tx, input.userId);
    });
  }

  /**
   * Sets a new password and ends every session; the audit row records that, never the password, and
   * the user is told (issue 12: no password changes silently, whoever makes it).
   */
  async function resetPassword(actor: Actor, input: { userId: number; password: string }) {
    refuseCommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      await updatePassword(tx, input.userId, passwordHash);
      const sessionsEnded = await deleteUserSessions(tx, input.userId);
      await clearLoginAttempts(tx, target.username);
      const auditId = await writeAudit(tx, {
        actorId: actor.id,
        action: 'user.resetpass',
        target: `user:${input.userId}`,
        after: { by: 'operator', sessionsEnded },
        requestId: actor.requestId,
      });
      await notify(tx, {
        userId: input.userId,
        kind: 'password_changed',
        params: {},
        dedupeKey: `password:${input.userId}:${auditId}`,
      });
      return { sessionsEnded };
    });
  }

  return { list, detail, freeze, setRole, resetPassword };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
