import type { ReplicaReads } from '../../platform/replica-reads';
import { checkMoney, type LedgerRule } from './wallet.rules';

/** The operators' side of the wallet: the ledger's invariants and business rules checked on demand (/metrics checks them too). */
export function createWalletAdmin({ replica, rules }: { replica: ReplicaReads; rules: readonly LedgerRule[] }) {
  // Reads every posting: on a replica when one is caught up, unless the operator asking just wrote.
  return { checkLedger: (reader: number) => replica.read(reader, (db) => checkMoney(db, rules)) };
}

export type WalletAdmin = ReturnType<typeof createWalletAdmin>;
