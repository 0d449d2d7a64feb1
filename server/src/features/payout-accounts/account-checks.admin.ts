import {
  ACCOUNT_CHECK_SIGNALS,
  type AccountCheckDecision,
  type AccountCheckItem,
  formatRupees,
  ifscParts,
  nameMatchScore,
  type PageQuery,
  translate,
} from '@kamai/contract';
import type { Db, Executor, Tx } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, encodeCursor } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import { needsSecondApprover, refuseSameApprover } from '../../platform/four-eyes';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { Actor } from '../../platform/routes';
import { getSetting } from '../../platform/settings.queries';
import { staleRefusal } from '../../platform/stale';
import * as cq from './account-checks.queries';
import * as q from './account-validation.queries';
import type { AccountValidations } from './account-validation.service';
import { maskAccountNo } from './payout-accounts.mask';

type Owner = Awaited<ReturnType<typeof cq.ownersOf>>[number];

/** What is at stake on a number: its owners' wallets and what waits to be paid to it (paise). */
async function stakeOf(db: Db | Tx, v: q.ValidationRow, owners: Owner[]) {
  const ids = [...new Set(owners.map((o) => o.userId))];
  const waiting = await cq.waitingTo(db, v, ids);
  const wallets = new Map(owners.map((o) => [o.userId, BigInt(o.balance)]));
  let total = 0n;
  for (const id of ids) total += (wallets.get(id) ?? 0n) + (waiting.get(id) ?? 0n);
  return { total, waiting };
}

/**
 * The operators' account checks (docs/decisions/account-checks-by-operators.md): numbers RazorpayX
 * could not validate, or whose check is overdue, with the details an operator checks against the
 * user's documents, the risk signals, and the four-eyes rule of withdrawals: above `secondApprovalAbove`
 * at stake (the owners' wallets and what waits to be paid to the number) two different operators approve.
 */
export function createAccountChecksAdmin({
  db,
  replica,
  validations,
}: {
  db: Db;
  replica: ReplicaReads;
  validations: Pick<AccountValidations, 'settleByOperator'>;
}) {
  async function items(from: Executor, rows: q.ValidationRow[]): Promise<AccountCheckItem[]> {
    const owners = await cq.ownersOf(
      from,
      rows.map((r) => r.id),
    );
    const userIds = [...new Set(owners.map((o) => o.userId))];
    const risk = await getSetting(from, 'risk');
    const { nameMatchMin } = await getSetting(from, 'accountValidation');
    const devices = await cq.sharingDevice(from, userIds);
    const out: AccountCheckItem[] = [];
    for (const v of rows) {
      const mine = owners.filter((o) => o.validationId === v.id);
      const { total, waiting } = await stakeOf(from, v, mine);
      const others = await cq.otherAccountNames(
        from,
        mine.map((o) => o.userId),
        v.id,
      );
      const signals: AccountCheckItem['signals'] = [];
      // Each user's check is their own: another user's check of the number is found by its keyed hash.
      if (v.numberHash !== null && (await q.numberOnOtherUsers(from, v.requestedBy, v.numberHash))) {
        signals.push(ACCOUNT_CHECK_SIGNALS.shared_number);
      }
      if (mine.some((o) => devices.has(o.userId))) signals.push(ACCOUNT_CHECK_SIGNALS.shared_device);
      const quickMs = risk.quickWithdrawalHours * 3_600_000;
      if (mine.some((o) => o.boundAt.getTime() - o.registeredAt.getTime() < quickMs)) {
        signals.push(ACCOUNT_CHECK_SIGNALS.new_user);
      }
      const differs = mine.some((o) => {
        const names = others.filter((n) => n.userId === o.userId).map((n) => n.accountName);
        return names.length > 0 && Math.max(...names.map((n) => nameMatchScore(o.accountName, n))) < nameMatchMin;
      });
      if (differs) signals.push(ACCOUNT_CHECK_SIGNALS.name_differs);
      out.push({
        id: v.id,
        accountType: v.accountType,
        accountName: v.accountName,
        ifsc: v.ifsc,
        bankName: v.accountType === 'bank' ? (ifscParts(v.ifsc)?.bank ?? null) : null,
        // A VPA names its bank by its handle and is what the user gives to be paid: shown whole.
        accountNoShown: v.accountType === 'upi' ? v.accountNo : maskAccountNo('bank', v.accountNo),
        cause: v.reviewCause ?? 'overdue',
        gatewayNote: v.reason,
        queuedAt: (v.reviewQueuedAt ?? v.updatedAt).toISOString(),
        owners: mine.map((o) => ({
          userId: o.userId,
          username: o.username,
          registeredAt: o.registeredAt.toISOString(),
          balance: formatRupees(BigInt(o.balance)),
          waiting: formatRupees(waiting.get(o.userId) ?? 0n),
        })),
        signals,
        approvalsRequired: needsSecondApprover(total, risk.secondApprovalAbovePaise) ? 2 : 1,
        firstApproverId: v.firstApproverId,
      });
    }
    return out;
  }

  /**
   * The queue, on a replica when one is caught up, unless `reader` changed something just now: a
   * decision on a check that changed meanwhile is refused with its current state (platform/stale.ts).
   */
  function list(query: PageQuery, reader: number) {
    return replica.read(reader, (from) => listOn(from, query));
  }

  async function listOn(from: Executor, query: PageQuery) {
    const afterId = decodeCursor(query.cursor, (v): v is number => Number.isSafeInteger(v));
    const rows = await cq.listQueued(from, query.limit + 1, afterId);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: await items(from, page),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : null,
    };
  }

  /**
   * One operator's decision, in one transaction under the check's row lock, audited. Refusing needs one
   * operator; approving needs two different ones when the stake is above the threshold (the first is
   * recorded; the same one again is refused). Nobody decides a number they keep themselves.
   */
  async function decide(actor: Actor, input: AccountCheckDecision) {
    return db.transaction(async (tx) => {
      const v = await q.lockValidation(tx, input.id);
      if (!v || v.reviewState === null) throw new AppError('account_check_not_found');
      if (v.status !== 'pending' || v.reviewState !== 'queued') {
        // Decided meanwhile: by an operator (approved, refused) or by the bank's own check (completed, failed).
        throw await staleRefusal(tx, 'account_check_decided_already', {
          state: v.reviewState === 'approved' || v.reviewState === 'refused' ? v.reviewState : v.status,
          byId: v.reviewedBy,
          at: v.completedAt ?? v.updatedAt,
        });
      }
      const owners = await cq.ownersOf(tx, [v.id]);
      if (v.requestedBy === actor.id || owners.some((o) => o.userId === actor.id)) {
        throw new AppError('cannot_review_own_account');
      }
      const before = { reviewState: v.reviewState, firstApproverId: v.firstApproverId };
      const audit = (action: string, after: Record<string, unknown>) =>
        writeAudit(tx, {
          actorId: actor.id,
          action: `account_check.${action}`,
          target: `account_validation:${v.id}`,
          before,
          after: { ...after, note: input.note },
          requestId: actor.requestId,
        });
      if (input.action === 'refuse') {
        const refusal = input.reason ?? 'other';
        const text = translate('en_US', `reject_preset_${refusal}` as const);
        await validations.settleByOperator(tx, v, { approve: false, by: actor.id, refusal, text });
        await audit('refuse', { reviewState: 'refused', refusal });
        return { id: v.id, state: 'refused' as const };
      }
      const risk = await getSetting(tx, 'risk');
      const { total } = await stakeOf(tx, v, owners);
      if (needsSecondApprover(total, risk.secondApprovalAbovePaise)) {
        if (v.firstApproverId === null) {
          await q.updateValidation(tx, v.id, { firstApproverId: actor.id });
          await audit('first_approval', { firstApproverId: actor.id, stake: formatRupees(total) });
          return { id: v.id, state: 'queued' as const };
        }
        refuseSameApprover(v.firstApproverId, actor.id);
      }
      await validations.settleByOperator(tx, v, { approve: true, by: actor.id });
      await audit('approve', { reviewState: 'approved', stake: formatRupees(total) });
      return { id: v.id, state: 'approved' as const };
    });
  }

  return { list, decide };
}
