import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { clientSignals } from '../../db/schema';

export type NewClientSignal = typeof clientSignals.$inferInsert;

export async function insertClientSignal(db: Executor, values: NewClientSignal) {
  await db.insert(clientSignals).values(values);
}

/** A deleted account's client records: addresses, browsers, device ids (docs/decisions/account-deletion.md). */
export async function deleteClientSignals(db: Executor, userId: number) {
  await db.delete(clientSignals).where(eq(clientSignals.userId, userId));
}
