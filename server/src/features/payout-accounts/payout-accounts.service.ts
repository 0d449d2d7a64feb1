import { accountNoProblem, PAYOUT_ACCOUNTS_MAX, type PayoutAccountItem, type PayoutAccountType } from '@kamai/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { lockUserNoKeyUpdate } from '../users';
import * as vq from './account-validation.queries';
import { type AccountValidations, verificationOf } from './account-validation.service';
import { maskAccountNo } from './payout-accounts.mask';
import * as q from './payout-accounts.queries';

export interface AccountInput {
  accountType: PayoutAccountType;
  ifsc: string;
  accountNo: string;
  accountName: string;
}

function toItem(row: q.PayoutAccountRow, validation: vq.ValidationRow | undefined): PayoutAccountItem {
  return {
    id: row.id,
    accountType: row.accountType,
    isDefault: row.isDefault ? 1 : 0,
    ifsc: row.ifsc,
    accountNoMasked: maskAccountNo(row.accountType, row.accountNo),
    accountName: row.accountName,
    verification: verificationOf(validation),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * A user's bank and UPI payout accounts (docs/design.md "Product rules"): only their own, one default. Each number is
 * checked with the bank when it is saved (docs/decisions/payout-account-validation.md); the bank's name
 * is shown to the owner only (and to staff).
 */
export function createPayoutAccountsService({
  db,
  now,
  validations,
}: {
  db: Db;
  now: () => Date;
  validations: AccountValidations;
}) {
  async function list(userId: number) {
    const rows = await q.listAccounts(db, userId);
    const checks = await vq.validationsByIds(
      db,
      rows.map((r) => r.validationId).filter((id): id is number => id !== null),
    );
    return {
      items: rows.map((row) => toItem(row, row.validationId === null ? undefined : checks.get(row.validationId))),
    };
  }

  /** Saves a new account; the first one, or one sent with isDefault 1, becomes the only default. */
  async function bind(userId: number, input: AccountInput & { isDefault: 0 | 1 }) {
    const numberHash = await validations.numberHashOf(input);
    return db.transaction(async (tx) => {
      await lockUserNoKeyUpdate(tx, userId);
      const count = await q.countAccounts(tx, userId);
      if (count >= PAYOUT_ACCOUNTS_MAX) throw new AppError('payout_account_limit', { max: PAYOUT_ACCOUNTS_MAX });
      const isDefault = input.isDefault === 1 || count === 0;
      if (isDefault) await q.clearDefault(tx, userId);
      const validationId = await validations.lookup(tx, userId, input, numberHash);
      const at = now();
      const row = await q.insertAccount(tx, {
        userId,
        ...input,
        isDefault,
        validationId,
        createdAt: at,
        updatedAt: at,
      });
      return { id: row.id };
    });
  }

  /** Changes one of the user's accounts; an empty accountNo keeps the stored one if the type stays. */
  async function edit(userId: number, input: AccountInput & { id: number; isDefault?: 0 | 1 }) {
    // The number's keyed hash before the transaction (an empty accountNo keeps the stored number).
    const known = input.accountNo || ((await q.findOwnAccount(db, userId, input.id))?.accountNo ?? '');
    const knownHash = await validations.numberHashOf({ ...input, accountNo: known });
    return db.transaction(async (tx) => {
      await lockUserNoKeyUpdate(tx, userId);
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
      const fields = { accountType: input.accountType, ifsc: input.ifsc, accountNo, accountName: input.accountName };
      // A changed number is checked again (one the user checked before reuses their result); the same number keeps its check.
      const sameNumber = vq.fingerprintOf(fields) === vq.fingerprintOf(current) && current.validationId !== null;
      const validationId = sameNumber
        ? current.validationId
        : await validations.lookup(
            tx,
            userId,
            fields,
            accountNo === known ? knownHash : await validations.numberHashOf(fields),
          );
      const row = await q.updateAccount(tx, current.id, {
        validationId,
        accountType: input.accountType,
        ifsc: input.ifsc,
        accountNo,
        accountName: input.accountName,
        isDefault,
        updatedAt: now(),
      });
      return toItem(row, validationId === null ? undefined : await vq.findValidation(tx, validationId));
    });
  }

  /**
   * Deletes one of the user's accounts unless a pending withdrawal names it (withdrawals keep their
   * own copy of the account, so finished ones do not hold it). A deleted default passes to the newest.
   */
  async function remove(userId: number, id: number) {
    return db.transaction(async (tx) => {
      await lockUserNoKeyUpdate(tx, userId);
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
