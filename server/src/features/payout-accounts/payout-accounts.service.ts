import { accountNoProblem, PAYOUT_ACCOUNTS_MAX, type PayoutAccountItem, type PayoutAccountType } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { maskAccountNo } from './payout-accounts.mask';
import * as q from './payout-accounts.queries';

export interface AccountInput {
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
}

function toItem(row: q.PayoutAccountRow): PayoutAccountItem {
  return {
    id: row.id,
    accountType: row.accountType,
    isDefault: row.isDefault ? 1 : 0,
    ifsc: row.ifsc,
    accountNoMasked: maskAccountNo(row.accountType, row.accountNo),
    accountName: row.accountName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A user's bank and UPI payout accounts (DESIGN.md §5): only their own, one default. */
export function createPayoutAccountsService({ db, now }: { db: Db; now: () => Date }) {
  async function list(userId: number) {
    return { items: (await q.listAccounts(db, userId)).map(toItem) };
  }

  /** Saves a new account; the first one, or one sent with isDefault 1, becomes the only default. */
  async function bind(userId: number, input: AccountInput & { isDefault: 0 | 1 }) {
    return db.transaction(async (tx) => {
      await q.lockOwner(tx, userId);
      const count = await q.countAccounts(tx, userId);
      if (count >= PAYOUT_ACCOUNTS_MAX) throw new AppError('payout_account_limit', { max: PAYOUT_ACCOUNTS_MAX });
      const isDefault = input.isDefault === 1 || count === 0;
      if (isDefault) await q.clearDefault(tx, userId);
      const at = now();
      const row = await q.insertAccount(tx, { userId, ...input, isDefault, createdAt: at, updatedAt: at });
      return { id: row.id };
    });
  }

  /** Changes one of the user's accounts; an empty accountNo keeps the stored one if the type stays. */
  async function edit(userId: number, input: AccountInput & { id: number; isDefault?: 0 | 1 }) {
    return db.transaction(async (tx) => {
      await q.lockOwner(tx, userId);
      const current = await q.findOwnAccount(tx, userId, input.id, 'update');
      if (!current) throw new AppError('payout_account_not_found');
      let accountNo = input.accountNo;
      if (!accountNo) {
        if (input.accountType !== current.accountType) {
          const key = accountNoProblem(input.accountType, '') ?? 'enter_account_number';
          throw new AppError(key, { fields: { accountNo: key } });
        }
        accountNo = current.accountNo;
      }
      const isDefault = input.isDefault === undefined ? current.isDefault : input.isDefault === 1;
      if (isDefault) await q.clearDefault(tx, userId, current.id);
      const row = await q.updateAccount(tx, current.id, {
        accountType: input.accountType,
        ifsc: input.ifsc,
        accountNo,
        accountName: input.accountName,
        isDefault,
        updatedAt: now(),
      });
      return toItem(row);
    });
  }

  /**
   * Deletes one of the user's accounts unless a pending withdrawal names it (withdrawals keep their
   * own copy of the account, so finished ones do not hold it). A deleted default passes to the newest.
   */
  async function remove(userId: number, id: number) {
    return db.transaction(async (tx) => {
      await q.lockOwner(tx, userId);
      const current = await q.findOwnAccount(tx, userId, id, 'update');
      if (!current) throw new AppError('payout_account_not_found');
      if (await q.hasPendingWithdrawal(tx, id)) throw new AppError('payout_account_in_use');
      await q.deleteAccount(tx, id);
      if (current.isDefault) {
        const [next] = await q.listAccounts(tx, userId);
        if (next) await q.updateAccount(tx, next.id, { isDefault: true });
      }
      return null;
    });
  }

  return { list, bind, edit, remove };
}

export type PayoutAccountsService = ReturnType<typeof createPayoutAccountsService>;
