import { formatRupees } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { getSetting } from '../../platform/settings.queries';
import { post, walletBalance } from '../wallet';
import type { LinkProvider } from './linked-accounts.provider';
import * as q from './linked-accounts.queries';
import {
  closeOpenStretch,
  intervalOf,
  intervalStart,
  moveTo,
  settleAvailableAt,
  settlementKey,
} from './linked-accounts.view';

/**
 * Settlement (docs/design.md "State machines"): the online time since the last settlement × the hourly rate in force now,
 * credited as linked-account income with rebates, at most once per clock hour per number. The account
 * row is locked for the whole computation and the posting is keyed by number + hour, so parallel or
 * repeated calls in one hour pay once.
 */
export function createSettlement({ db, provider, now }: { db: Db; provider: LinkProvider; now: () => Date }) {
  async function settle(userId: number, phone: string) {
    const found = await q.findAccountByPhone(db, phone);
    if (!found || found.userId !== userId) throw new AppError('linked_account_not_found');
    // Pay only for time the provider confirms: a session it ended without telling us stops counting now.
    const reported = await provider.status(phone);
    const at = now();

    return db.transaction(async (tx) => {
      let row = await q.findAccountByPhone(tx, phone, { forUpdate: true });
      if (!row || row.userId !== userId) throw new AppError('linked_account_not_found');
      const wait = settleAvailableAt(row, at);
      if (wait) {
        const minutes = Math.ceil((wait.getTime() - at.getTime()) / 60_000);
        throw new AppError('linked_settle_wait', { minutes, settleAvailableAt: wait.toISOString() });
      }
      if (reported && reported !== row.status) {
        const from = row.status;
        row = await q.updateAccount(tx, row.id, moveTo(row, reported, at));
        await q.insertEvent(tx, {
          accountId: row.id,
          kind: 'status_changed',
          fromStatus: from,
          toStatus: reported,
          actor: 'provider',
          createdAt: at,
        });
      }

      const closed = closeOpenStretch(row, at);
      const seconds = closed.unsettledSeconds;
      const { hourlyRatePaise } = await getSetting(tx, 'linked');
      const amount = (BigInt(seconds) * BigInt(hourlyRatePaise)) / 3600n;
      if (amount <= 0n) throw new AppError('linked_nothing_to_settle');

      const interval = intervalOf(at);
      // Linked income is no task reward: it owes no rebate (docs/decisions/rebate-hold.md).
      const credit = await post(tx, {
        type: 'linked_income',
        idempotencyKey: settlementKey(row.id, interval),
        ref: { linkedAccountId: row.id },
        entries: [
          { account: { kind: 'platform_revenue' }, amount: -amount },
          { account: { userId, kind: 'wallet' }, amount },
        ],
      });
      const next = intervalStart(interval + 1);
      if (!credit.created) {
        // Only reachable if the row's last settlement was lost; the key still refuses a second payment.
        throw new AppError('linked_settle_wait', {
          minutes: Math.ceil((next.getTime() - at.getTime()) / 60_000),
          settleAvailableAt: next.toISOString(),
        });
      }
      await q.updateAccount(tx, row.id, {
        ...closed,
        unsettledSeconds: 0,
        earned: row.earned + amount,
        lastSettledAt: at,
      });
      await q.insertEvent(tx, { accountId: row.id, kind: 'settled', actor: 'user', seconds, amount, createdAt: at });
      return {
        phone,
        amount: formatRupees(amount),
        seconds,
        balance: formatRupees(await walletBalance(tx, userId)),
        settledAt: at.toISOString(),
        settleAvailableAt: next.toISOString(),
      };
    });
  }

  return { settle };
}
