import { type DataExport, formatRupees } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { RateLimit } from '../../platform/rate-limit';
import { noticeReadsOf } from '../notices';
import { maskAccountNo, payoutAccountsOf } from '../payout-accounts';
import { completionsOf, proofsOf } from '../tasks';
import { findUserById, inviteeJoinDates } from '../users';
import { userLedgerEntries } from '../wallet';
import { withdrawalsOf } from '../withdrawals';

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * "Download my data" (DPDP Act 2023, s. 11): every record the app keeps about the caller, read by the
 * caller's id only, so nothing of another user can be in it (`dataExportData` says what is left out).
 */
export function createDataExport({ db, now, perUser }: { db: Db; now: () => Date; perUser: RateLimit }) {
  return async function exportData(userId: number): Promise<DataExport> {
    const taken = await perUser.take(String(userId));
    if (!taken.ok) throw new AppError('too_many_requests', { seconds: taken.retryAfterSeconds });
    const user = await findUserById(db, userId);
    if (!user || user.deletedAt) throw new AppError('unauthorized');
    const [payout, ledger, paid, completed, proofs, invitees, read] = await Promise.all([
      payoutAccountsOf(db, userId),
      userLedgerEntries(db, userId),
      withdrawalsOf(db, userId),
      completionsOf(db, userId),
      proofsOf(db, userId),
      inviteeJoinDates(db, userId),
      noticeReadsOf(db, userId),
    ]);
    return {
      exportedAt: now().toISOString(),
      profile: {
        id: user.id,
        username: user.username,
        inviteCode: user.inviteCode,
        role: user.role,
        frozen: user.frozen,
        createdAt: user.createdAt.toISOString(),
        invited: user.inviterId !== null,
      },
      payoutAccounts: payout.map((a) => ({
        id: a.id,
        type: a.accountType,
        accountNo: maskAccountNo(a.accountType, a.accountNo),
        accountName: a.accountName,
        ifsc: a.ifsc,
        isDefault: a.isDefault,
        createdAt: a.createdAt.toISOString(),
      })),
      ledger: ledger.map((e) => ({
        id: e.id,
        account: e.account as 'wallet' | 'hold' | 'rebate_pending',
        type: e.type,
        amount: formatRupees(e.amount),
        balanceAfter: e.balanceAfter === null ? null : formatRupees(e.balanceAfter),
        createdAt: e.createdAt.toISOString(),
      })),
      withdrawals: paid.map((w) => ({
        id: w.id,
        amount: formatRupees(w.amount),
        fee: formatRupees(w.fee),
        state: w.state,
        accountType: w.accountType,
        accountNo: maskAccountNo(w.accountType, w.accountNo),
        reason: w.reason,
        reference: w.reference,
        createdAt: w.createdAt.toISOString(),
        finishedAt: iso(w.finishedAt),
      })),
      tasks: {
        completed: completed.map((c) => ({
          taskId: c.taskId,
          title: c.titles.en_US ?? '',
          completedAt: c.createdAt.toISOString(),
        })),
        proofs: proofs.map((p) => ({
          id: p.id,
          taskId: p.taskId,
          state: p.state,
          link: p.link,
          screenshot: p.imageUrl !== null,
          reason: p.reason,
          createdAt: p.createdAt.toISOString(),
          reviewedAt: iso(p.reviewedAt),
        })),
      },
      invites: invitees.map((i) => ({ joinedAt: i.createdAt.toISOString() })),
      noticesRead: read.map((r) => ({ noticeId: r.noticeId, title: r.title, readAt: r.readAt.toISOString() })),
    };
  };
}
