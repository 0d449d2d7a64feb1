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
import { type ControlChangeRow, type ControlKind, pickLike, proposeChange } from '../../platform/control-changes';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { hashPassword } from '../../platform/password';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { Actor } from '../../platform/routes';
import { countInvitees } from '../referrals';
import { updateUser } from '../users';
import { findUserAccountId, listEntries } from '../wallet';
import * as q from './admin-users.queries';
import { applyNewPassword } from './new-password';

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

export function createAdminUsersService({ db, replica, now }: { db: Db; replica: ReplicaReads; now: () => Date }) {
  /** A console list: may be a moment stale (a replica), except right after `reader` changed something. */
  async function list(query: ListQuery, reader: number) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await replica.read(reader, (db) =>
      q.listUserRows(db, {
        search: query.q || undefined,
        role: query.role,
        frozen: query.frozen,
        inviterId: query.inviterId,
        joinedFrom: query.joinedFrom,
        joinedTo: query.joinedTo,
        beforeId,
        limit: query.limit + 1,
      }),
    );
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
    // A deleted account is final (docs/decisions/account-deletion.md): no unfreezing, promoting or new password revives
    // it.
    if (target.deletedAt) throw new AppError('account_deleted_final');
    return target;
  }

  async function rowOf(tx: Tx, userId: number) {
    const row = await q.findUserRow(tx, userId);
    if (!row) throw new AppError('user_not_found');
    return toRow(row);
  }

  /** Writes a freeze or a role of a locked account and audits it (`user.freeze`, `user.role`). */
  async function writeUser(
    tx: Tx,
    actor: Actor,
    target: { id: number; role: Role; frozen: boolean },
    change: { frozen: boolean } | { role: Role },
  ) {
    const field = 'role' in change ? 'role' : 'frozen';
    await updateUser(tx, target.id, change);
    await writeAudit(tx, {
      actorId: actor.id,
      action: field === 'role' ? 'user.role' : 'user.freeze',
      target: `user:${target.id}`,
      before: { [field]: target[field] },
      after: change,
      requestId: actor.requestId,
    });
  }

  /**
   * Freezing applies at once (it only takes power away); lifting the freeze of a staff account gives
   * the console back, so it is proposed for a second admin (docs/decisions/dual-control.md).
   */
  async function freeze(actor: Actor, input: { userId: number; frozen: boolean }) {
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      if (target.frozen && !input.frozen && target.role !== 'user') {
        const change = await proposeChange(tx, now(), actor, {
          kind: 'unfreeze',
          target: `user:${target.id}`,
          oldValue: { frozen: true },
          newValue: { frozen: false },
        });
        return { ...(await rowOf(tx, input.userId)), change };
      }
      await writeUser(tx, actor, target, { frozen: input.frozen });
      return { ...(await rowOf(tx, input.userId)), change: null };
    });
  }

  /** Every role change (a grant or a removal) is proposed for a second admin; setting the same role changes nothing. */
  async function setRole(actor: Actor, input: { userId: number; role: Role }) {
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      if (target.role === input.role) {
        await writeUser(tx, actor, target, { role: input.role });
        return { ...(await rowOf(tx, input.userId)), change: null };
      }
      const change = await proposeChange(tx, now(), actor, {
        kind: 'role',
        target: `user:${target.id}`,
        oldValue: { role: target.role },
        newValue: { role: input.role },
      });
      return { ...(await rowOf(tx, input.userId)), change };
    });
  }

  /** The account a `user:<id>` proposal is about, locked with the applier; refused when it changed meanwhile. */
  async function lockTarget(tx: Tx, change: ControlChangeRow, actor: Actor) {
    const target = await lockForChange(tx, actor, Number(change.target.slice('user:'.length)));
    const fields = { role: target.role, frozen: target.frozen };
    if (JSON.stringify(pickLike(fields, change.oldValue)) !== JSON.stringify(change.oldValue)) {
      throw new AppError('control_change_stale');
    }
    return target;
  }

  async function currentOf(tx: Tx, change: ControlChangeRow) {
    const row = await q.findUserRow(tx, Number(change.target.slice('user:'.length)));
    return row ? pickLike({ role: row.role, frozen: row.frozen }, change.oldValue) : {};
  }

  /** How a role or unfreeze proposal is read and applied (platform/control-changes.ts). */
  const userControl: ControlKind = {
    current: currentOf,
    apply: async (tx, change, actor) =>
      writeUser(
        tx,
        actor,
        await lockTarget(tx, change, actor),
        change.newValue as { role: Role } | { frozen: boolean },
      ),
  };

  /**
   * Sets a new password and ends every session; the audit row records that, never the password, and
   * the user is told (no password changes silently, whoever makes it: docs/decisions/passwords-and-sessions.md).
   */
  async function resetPassword(actor: Actor, input: { userId: number; password: string }) {
    refuseCommonPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    return db.transaction(async (tx) => {
      const target = await lockForChange(tx, actor, input.userId);
      // Staff reset their own password by one-time code: no admin sets another staff member's and logs in as them.
      if (target.role !== 'user') throw new AppError('staff_password_by_code');
      const sessionsEnded = await applyNewPassword(tx, {
        user: { id: input.userId, username: target.username },
        passwordHash,
        actorId: actor.id,
        after: { by: 'operator' },
        requestId: actor.requestId,
      });
      return { sessionsEnded };
    });
  }

  return { list, detail, freeze, setRole, resetPassword, roleControl: userControl, unfreezeControl: userControl };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
