import {
  ACCOUNT_VALIDATION_DEFAULTS,
  encodeRejectReason,
  endOfBusinessDay,
  type PageQuery,
  type PayoutGatewayName,
  type RejectPreset,
  startOfBusinessDay,
  type WithdrawalState,
} from '@kamai/contract';
import type { Db, Executor } from '../../db/client';
import type { StatementPart } from '../../db/prepared';
import { auditPart } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { refuseSameApprover } from '../../platform/four-eyes';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { Actor } from '../../platform/routes';
import { getSetting, settingOver } from '../../platform/settings.queries';
import { staleRefusal } from '../../platform/stale';
import { accountNamesOf, ownedFingerprintOf, validationsByFingerprints } from '../payout-accounts';
import * as q from './withdrawals.queries';
import { changeStateWithView } from './withdrawals.state';
import { byWithdrawal, toAdminItem } from './withdrawals.view';

/**
 * What approval hands the payout to (the payouts feature): its writes go into the approval's own
 * statement, so the payout is queued exactly when the approval commits; then a nudge.
 */
export interface PayoutDispatcher {
  /** The gateway that pays the withdrawal (a column the approval sets) and its dispatch job (CTEs). */
  dispatchWrites(withdrawalId: number): { gateway: PayoutGatewayName; with: StatementPart[] };
  wake(): void;
}

export interface AdminListQuery extends PageQuery {
  state?: WithdrawalState;
  userId?: number;
  from?: string;
  to?: string;
  minRisk?: number;
  reason?: string;
  sort?: 'queue' | 'risk';
}

/**
 * `x`: one filtered list; `p` then `r`: pending oldest first, then the rest newest first; `k`: by
 * risk score, highest first (`score` of the last item). `id` null: from the start.
 */
type AdminCursor = { s: 'x' | 'p' | 'r' | 'k'; id: number | null; score?: number };
const isAdminCursor = (v: unknown): v is AdminCursor =>
  typeof v === 'object' &&
  v !== null &&
  ['x', 'p', 'r', 'k'].includes((v as AdminCursor).s) &&
  ((v as AdminCursor).id === null || Number.isSafeInteger((v as AdminCursor).id)) &&
  ((v as AdminCursor).s !== 'k' || Number.isSafeInteger((v as AdminCursor).score));

/** The reviewers' side of withdrawals: the queue and the decision on each. */
export function createWithdrawalsAdmin({
  db,
  replica,
  now,
  payouts,
}: {
  db: Db;
  replica: ReplicaReads;
  now: () => Date;
  payouts: PayoutDispatcher;
}) {
  async function withUsernamesAndHistory(db: Executor, rows: { withdrawal: q.WithdrawalRow; username: string }[]) {
    const history = byWithdrawal(
      await q.historyOf(
        db,
        rows.map((r) => r.withdrawal.id),
      ),
    );
    const checks = await validationsByFingerprints(
      db,
      rows.map((r) => r.withdrawal),
    );
    // The names each verified payee is compared with, for the whole page in one read, and the threshold once.
    const verified = rows.filter((r) => checks.get(ownedFingerprintOf(r.withdrawal))?.registeredName);
    const names =
      verified.length > 0
        ? await accountNamesOf(
            db,
            verified.map((r) => r.withdrawal.userId),
          )
        : [];
    const { nameMatchMin } =
      verified.length > 0 ? await getSetting(db, 'accountValidation') : ACCOUNT_VALIDATION_DEFAULTS;
    return rows.map((r) => {
      const check = checks.get(ownedFingerprintOf(r.withdrawal));
      const others = check ? names.filter((n) => n.userId === r.withdrawal.userId && n.validationId !== check.id) : [];
      return toAdminItem(
        r.withdrawal,
        r.username,
        history.get(r.withdrawal.id) ?? [],
        check && { check, others, nameMatchMin },
      );
    });
  }

  /**
   * Filtered by state, user and India calendar days; unfiltered: pending oldest first, then the rest
   * newest first. On a replica when one is caught up, unless `reader` changed something just now: a
   * decision on a row that changed meanwhile is refused with its current state (platform/stale.ts).
   */
  function list(query: AdminListQuery, reader: number) {
    return replica.read(reader, (from) => listOn(from, query));
  }

  async function listOn(db: Executor, query: AdminListQuery) {
    const cursor = decodeCursor(query.cursor, isAdminCursor);
    const filter = {
      userId: query.userId,
      from: query.from ? startOfBusinessDay(query.from) : undefined,
      to: query.to ? endOfBusinessDay(query.to) : undefined,
      minRisk: query.minRisk,
      reason: query.reason,
    };
    const limit = query.limit;
    if (query.sort === 'risk') {
      const after = cursor?.s === 'k' && cursor.id !== null ? { score: cursor.score ?? 0, id: cursor.id } : undefined;
      const rows = await q.listForAdminByRisk(db, { ...filter, state: query.state }, limit + 1, after);
      const page = keysetPage(
        rows,
        limit,
        (last): AdminCursor => ({
          s: 'k',
          id: last.withdrawal.id,
          score: last.withdrawal.riskScore,
        }),
      );
      return { items: await withUsernamesAndHistory(db, page.items), nextCursor: page.nextCursor };
    }
    if (query.state) {
      const order = query.state === 'pending' ? 'asc' : 'desc';
      const rows = await q.listForAdmin(
        db,
        { ...filter, state: query.state },
        order,
        limit + 1,
        cursor?.id ?? undefined,
      );
      const page = keysetPage(rows, limit, (last): AdminCursor => ({ s: 'x', id: last.withdrawal.id }));
      return { items: await withUsernamesAndHistory(db, page.items), nextCursor: page.nextCursor };
    }
    const page: Awaited<ReturnType<typeof q.listForAdmin>> = [];
    let next: string | null = null;
    let afterId = cursor?.id ?? undefined;
    if ((cursor?.s ?? 'p') === 'p') {
      const rows = await q.listForAdmin(db, { ...filter, state: 'pending' }, 'asc', limit + 1, afterId);
      const pending = keysetPage(rows, limit, (last): AdminCursor => ({ s: 'p', id: last.withdrawal.id }));
      page.push(...pending.items);
      next = pending.nextCursor;
      afterId = undefined;
    }
    if (!next) {
      const room = limit - page.length;
      const rows = await q.listForAdmin(db, { ...filter, notPending: true }, 'desc', room + 1, afterId);
      page.push(...rows.slice(0, room));
      // A page that spans both lists, so not keysetPage: with no room left on this page, the next one
      // starts the rest from its beginning (id null).
      if (rows.length > room)
        next = encodeCursor({ s: 'r', id: rows[room - 1]?.withdrawal.id ?? null } satisfies AdminCursor);
    }
    return { items: await withUsernamesAndHistory(db, page), nextCursor: next };
  }

  /**
   * Approves (and queues the payout) or rejects (hold returned) a pending withdrawal; audited. After the
   * lock, one statement writes the change with its history, notification, payout job and audit row and
   * answers what the console shows (a rejection's refund posting follows it).
   */
  async function review(
    actor: Actor,
    request: { id: number; action: 'approve' | 'reject'; reason: string; preset?: RejectPreset },
  ) {
    const to = request.action === 'approve' ? 'approved' : 'rejected';
    // A rejection's preset is stored with its code, so every reader sees it in their own language.
    const input = {
      ...request,
      reason: to === 'rejected' ? encodeRejectReason(request.preset, request.reason) : request.reason,
    };
    const outcome = await db.transaction(async (tx) => {
      const current = await q.lockWithdrawal(tx, input.id);
      if (!current) throw new AppError('withdrawal_not_found');
      if (current.userId === actor.id) throw new AppError('cannot_review_own_withdrawal');
      // Decided meanwhile (another reviewer, the user's cancel): the refusal says by whom and when.
      if (current.state !== 'pending') {
        throw await staleRefusal(tx, 'withdrawal_state_conflict', {
          state: current.state,
          byId: current.reviewerId,
          at: current.reviewedAt ?? current.finishedAt ?? current.updatedAt,
        });
      }
      if (to === 'approved' && current.approvalsRequired > 1) {
        refuseSameApprover(current.firstApproverId, actor.id);
        if (current.firstApproverId === null) {
          // Four-eyes: the first approval is recorded; only a different reviewer's dispatches.
          const audited = auditPart('audited', {
            actorId: actor.id,
            action: 'withdrawal.approve_first',
            target: `withdrawal:${current.id}`,
            before: { state: current.state, approvals: 0 },
            after: { state: current.state, approvals: 1, reason: input.reason || null },
            requestId: actor.requestId,
          });
          const view = await q.updateWithdrawalWithView(
            tx,
            current,
            { firstApproverId: actor.id, firstApprovedAt: now() },
            { also: [audited] },
          );
          return { view, dispatched: false };
        }
      }
      const dispatch = to === 'approved' ? payouts.dispatchWrites(current.id) : undefined;
      const audited = auditPart('audited', {
        actorId: actor.id,
        action: `withdrawal.${input.action}`,
        target: `withdrawal:${current.id}`,
        before: {
          state: current.state,
          ...(current.firstApproverId ? { firstApproverId: current.firstApproverId } : {}),
        },
        after: { state: to, reason: input.reason || null },
        requestId: actor.requestId,
      });
      const view = await changeStateWithView(tx, current, {
        to,
        at: now(),
        reason: input.reason || null,
        actorId: actor.id,
        set: dispatch ? { gateway: dispatch.gateway } : undefined,
        with: [...(dispatch?.with ?? []), audited],
      });
      return { view, dispatched: dispatch !== undefined };
    });
    if (outcome.dispatched) payouts.wake();
    const { row, username, history, payee } = outcome.view;
    return toAdminItem(
      row,
      username,
      history,
      payee && {
        check: payee.check,
        others: payee.others,
        nameMatchMin: settingOver('accountValidation', payee.storedSetting).nameMatchMin,
      },
    );
  }

  return { list, review };
}

export type WithdrawalsAdmin = ReturnType<typeof createWithdrawalsAdmin>;
