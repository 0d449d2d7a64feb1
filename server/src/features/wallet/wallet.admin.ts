import type { Db } from '../../db/client';
import { checkMoney, type LedgerRule } from './wallet.rules';

/** The operators' side of the wallet: the ledger's invariants and business rules checked on demand (/metrics checks them too). */
export function createWalletAdmin({ db, rules }: { db: Db; rules: readonly LedgerRule[] }) {
  return { checkLedger: () => checkMoney(db, rules) };
}

export type WalletAdmin = ReturnType<typeof createWalletAdmin>;
