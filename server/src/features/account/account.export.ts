import { type DataExport, formatRupees } from '@kamai/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  accounts,
  entries,
  noticeReads,
  notices,
  payoutAccounts,
  postings,
  taskCompletions,
  taskProofs,
  tasks,
  users,
  withdrawals,
} from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { RateLimit } from '../../platform/rate-limit';
import { maskAccountNo } from '../payout-accounts';

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * "Download my data" (DPDP Act 2023, s. 11): every record the app keeps about the caller, read by the
 * caller's id only, so nothing of another user can be in it (`dataExportData` says what is left out).
 */
export function createDataExport({ db, now, perUser }: { db: Db; now: () => Date; perUser: RateLimit }) {
  return async function exportData(userId: number): Promise<DataExport> {
    const taken = await perUser.take(String(userId));
    if (!taken.ok) throw new AppError('too_many_requests', { seconds: taken.retryAfterSeconds });
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user || user.deletedAt) throw new AppError('unauthorized');
    const [payout, ledger, paid, completed, proofs, invitees, read] = await Promise.all([
      db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)).orderBy(asc(payoutAccounts.id)),
      db
        .select({
          id: entries.id,
          account: accounts.kind,
          type: postings.type,
          amount: entries.amount,
          balanceAfter: entries.balanceAfter,
          createdAt: entries.createdAt,
        })
        .from(entries)
        .innerJoin(accounts, eq(accounts.id, entries.accountId))
        .innerJoin(postings, eq(postings.id, entries.postingId))
        .where(and(eq(accounts.userId, userId), inArray(accounts.kind, ['wallet', 'hold', 'rebate_pending'])))
        .orderBy(asc(entries.id)),
      db.select().from(withdrawals).where(eq(withdrawals.userId, userId)).orderBy(asc(withdrawals.id)),
      db
        .select({ taskId: taskCompletions.taskId, titles: tasks.titles, createdAt: taskCompletions.createdAt })
        .from(taskCompletions)
        .innerJoin(tasks, eq(tasks.id, taskCompletions.taskId))
        .where(eq(taskCompletions.userId, userId))
        .orderBy(asc(taskCompletions.createdAt), asc(taskCompletions.taskId)),
      db.select().from(taskProofs).where(eq(taskProofs.userId, userId)).orderBy(asc(taskProofs.id)),
      db
        .select({ createdAt: users.createdAt })
        .from(users)
        .where(eq(users.inviterId, userId))
        .orderBy(asc(users.createdAt)),
      db
        .select({ noticeId: noticeReads.noticeId, title: notices.title, readAt: noticeReads.readAt })
        .from(noticeReads)
        .innerJoin(notices, eq(notices.id, noticeReads.noticeId))
        .where(eq(noticeReads.userId, userId))
        .orderBy(asc(noticeReads.readAt)),
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
