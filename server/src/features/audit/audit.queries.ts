import type { Executor } from '../../db/client';
import { auditLog } from '../../db/schema';

export interface AuditEntry {
  actorId: number;
  /** What was done: `task.add`, `rebate.set`, `revenue.add`, ... */
  action: string;
  /** What it was done to: `task:101`, `setting:rebate`, `user:42`. */
  target: string;
  /** Plain JSON (money as rupee strings). */
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

/** Appends one admin action to the audit log (DESIGN.md §5), inside the action's own transaction. */
export async function writeAudit(db: Executor, entry: AuditEntry): Promise<number> {
  const [row] = await db
    .insert(auditLog)
    .values({
      actorId: entry.actorId,
      action: entry.action,
      target: entry.target,
      before: entry.before ?? null,
      after: entry.after ?? null,
      requestId: entry.requestId ?? null,
    })
    .returning({ id: auditLog.id });
  if (!row) throw new Error('insert audit_log returned no row');
  return row.id;
}
