import type { Executor } from '../../db/client';
import { deleteUserIdempotencyKeys } from '../../platform/idempotency.queries';
import { deleteUserNotifications } from '../../platform/notifications.queries';
import { deleteUserSessions } from '../../platform/sessions.queries';
import { clearLoginAttempts } from '../auth';
import { deleteClientSignals } from '../fraud';
import { forgetUserLinkedAccounts } from '../linked-accounts';
import { deleteUserNoticeReads } from '../notices';
import { forgetOtpTarget } from '../otp';
import { deleteUserPayoutAccounts } from '../payout-accounts';
import { forgetSandboxAccounts } from '../payouts';
import { deleteUserSubscriptions } from '../push';
import { deleteSurveyResponse } from '../survey';
import { clearUserProofs } from '../tasks';
import { anonymiseUser } from '../users';
import { maskUserWithdrawalAccounts, withdrawalIdsOf } from '../withdrawals';

/**
 * Erases or anonymises everything that identifies the user, in the caller's transaction
 * (docs/decisions/account-deletion.md, DPDP Act 2023): each table's owner erases its own rows
 * (docs/decisions/table-owners.md). The user row stays as the ledger's anonymous owner; money records
 * stay with their amounts, their account details masked.
 */
export async function eraseUser(db: Executor, user: { id: number; username: string }, at: Date) {
  const id = user.id;
  await anonymiseUser(db, id, at);
  await deleteUserSessions(db, id);
  await clearLoginAttempts(db, user.username);
  // Where codes were sent; where the account came from (addresses, browsers, device ids); where pushes go.
  await forgetOtpTarget(db, user.username);
  await deleteClientSignals(db, id);
  await deleteUserSubscriptions(db, id);
  await deleteSurveyResponse(db, id);
  await deleteUserNotifications(db, id);
  await deleteUserNoticeReads(db, id);
  await deleteUserIdempotencyKeys(db, id);
  await deleteUserPayoutAccounts(db, id);
  await maskUserWithdrawalAccounts(db, id);
  // The sandbox gateway's own copy of each payout (a development stand-in for the bank's side).
  await forgetSandboxAccounts(db, (await withdrawalIdsOf(db, id)).map(String));
  await forgetUserLinkedAccounts(db, id);
  await clearUserProofs(db, id);
}
