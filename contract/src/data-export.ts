import { z } from 'zod';
import { PAYOUT_ACCOUNT_TYPES } from './payout-accounts';
import { POSTING_TYPES } from './wallet';

/** Downloads of "my data" per user per hour: a file for the user, not a feed to poll. */
export const DATA_EXPORTS_PER_HOUR = 5;

/**
 * "Download my data" (DPDP Act 2023, s. 11, the right to a summary of one's personal data): the
 * caller's own records only: never another user's name, username or id (an invitee is a join date, a
 * reviewer is not named). Account numbers and UPI ids are masked as the app shows them after entry.
 * Amounts are rupee strings; times ISO 8601.
 */
export const dataExportData = z.object({
  exportedAt: z.string(),
  profile: z.object({
    id: z.number().int(),
    username: z.string(),
    inviteCode: z.string(),
    role: z.string(),
    frozen: z.boolean(),
    createdAt: z.string(),
    /** Whether someone invited the user (who it was is the inviter's data). */
    invited: z.boolean(),
  }),
  payoutAccounts: z.array(
    z.object({
      id: z.number().int(),
      type: z.enum(PAYOUT_ACCOUNT_TYPES),
      /** Masked as the app shows it: a bank account's last four digits, a UPI id's first two characters and handle. */
      accountNo: z.string(),
      accountName: z.string(),
      ifsc: z.string(),
      isDefault: z.boolean(),
      createdAt: z.string(),
    }),
  ),
  /** Every movement of the user's wallet and hold, oldest first. */
  ledger: z.array(
    z.object({
      id: z.number().int(),
      account: z.enum(['wallet', 'hold', 'rebate_pending']),
      type: z.enum(POSTING_TYPES),
      amount: z.string(),
      balanceAfter: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  withdrawals: z.array(
    z.object({
      id: z.number().int(),
      amount: z.string(),
      fee: z.string(),
      state: z.string(),
      accountType: z.enum(PAYOUT_ACCOUNT_TYPES),
      accountNo: z.string(),
      reason: z.string().nullable(),
      reference: z.string().nullable(),
      createdAt: z.string(),
      finishedAt: z.string().nullable(),
    }),
  ),
  tasks: z.object({
    completed: z.array(z.object({ taskId: z.number().int(), title: z.string(), completedAt: z.string() })),
    proofs: z.array(
      z.object({
        id: z.number().int(),
        taskId: z.number().int(),
        state: z.string(),
        link: z.string().nullable(),
        screenshot: z.boolean(),
        reason: z.string().nullable(),
        createdAt: z.string(),
        reviewedAt: z.string().nullable(),
      }),
    ),
  }),
  /** The friends who registered with the user's invite code: when, nothing that names them. */
  invites: z.array(z.object({ joinedAt: z.string() })),
  noticesRead: z.array(z.object({ noticeId: z.number().int(), title: z.string(), readAt: z.string() })),
});
export type DataExport = z.infer<typeof dataExportData>;
