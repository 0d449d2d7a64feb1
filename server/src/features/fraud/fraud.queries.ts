import type { Executor } from '../../db/client';
import { clientSignals } from '../../db/schema';

export type NewClientSignal = typeof clientSignals.$inferInsert;

export async function insertClientSignal(db: Executor, values: NewClientSignal) {
  await db.insert(clientSignals).values(values);
}
