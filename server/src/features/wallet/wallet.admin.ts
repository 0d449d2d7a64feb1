import type { Db } from '../../db/client';
import { checkLedger } from './wallet.ledger';

/** The operators' side of the wallet: the ledger's invariant checked on demand (/metrics checks it too). */
export function createWalletAdmin({ db }: { db: Db }) {
  return { checkLedger: () => checkLedger(db) };
}

export type WalletAdmin = ReturnType<typeof createWalletAdmin>;
