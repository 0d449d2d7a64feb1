import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** `transaction_read_only` of the session the pool hands out: `off` on a primary that takes writes. */
export async function transactionReadOnly(db: Db): Promise<string | undefined> {
  const result = await db.execute<{ read_only: string }>(
    sql`select current_setting('transaction_read_only') as read_only`,
  );
  return (result as unknown as { rows: { read_only: string }[] }).rows[0]?.read_only;
}
