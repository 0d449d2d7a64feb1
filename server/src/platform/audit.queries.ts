import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { rowPlaceholders, type StatementPart } from '../db/prepared';
import { auditLog, users } from '../db/schema';
import { currentClientRequestId } from './request-context';

export interface AuditEntry {
  actorId: number;
  /** What was done: `task.add`, `rebate.set`, `revenue.add`, ... */
  action: string;
  /** What it was done to: `task:101`, `setting:rebate`, `user:42`. */
  target: string;
  /** Plain JSON (money as rupee strings). */
  before?: unknown;
  after?: unknown;
  /** The server's id of the request (HandlerContext.requestId). */
  requestId?: string;
  /** The client's own `x-request-id`; by default the one of the request being handled, if it sent one. */
  clientRequestId?: string;
}

/** The row `writeAudit` adds for an entry. */
function auditRow(entry: AuditEntry) {
  return {
    actorId: entry.actorId,
    action: entry.action,
    target: entry.target,
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
    clientRequestId: entry.clientRequestId ?? currentClientRequestId() ?? null,
  };
}

/** The insert of `writeAudit`, unrun: for a data-modifying CTE in the statement of the action it records. */
export function auditInsert(db: Executor, entry: AuditEntry) {
  return db.insert(auditLog).values(auditRow(entry)).returning({ id: auditLog.id });
}

/**
 * `auditInsert` as the CTE `name` of a statement built once per shape (`builtPerShape`): every value
 * of the row is a placeholder.
 */
export function auditPart(name: string, entry: AuditEntry): StatementPart {
  const { row, params, shape } = rowPlaceholders(auditLog, name, auditRow(entry));
  return {
    shape,
    params,
    ctes: (db) => [db.$with(name).as(db.insert(auditLog).values(row()).returning({ id: auditLog.id }))],
  };
}

/** Appends one admin action to the audit log (docs/design.md "Product rules"), inside the action's own transaction. */
export async function writeAudit(db: Executor, entry: AuditEntry): Promise<number> {
  const [row] = await auditInsert(db, entry);
  if (!row) throw new Error('insert audit_log returned no row');
  return row.id;
}

export interface AuditFilter {
  actorId?: number;
  action?: string;
  target?: string;
  from?: Date;
  to?: Date;
  beforeId?: number;
  limit: number;
}

/** The audit log, newest first, with each actor's username. */
export async function listAudit(db: Executor, filter: AuditFilter) {
  return db
    .select({
      id: auditLog.id,
      actorId: auditLog.actorId,
      actorUsername: users.username,
      action: auditLog.action,
      target: auditLog.target,
      before: auditLog.before,
      after: auditLog.after,
      requestId: auditLog.requestId,
      clientRequestId: auditLog.clientRequestId,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .innerJoin(users, eq(users.id, auditLog.actorId))
    .where(
      and(
        filter.actorId === undefined ? undefined : eq(auditLog.actorId, filter.actorId),
        filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
        filter.target === undefined ? undefined : eq(auditLog.target, filter.target),
        filter.from === undefined ? undefined : gte(auditLog.createdAt, filter.from),
        filter.to === undefined ? undefined : lt(auditLog.createdAt, filter.to),
        filter.beforeId === undefined ? undefined : lt(auditLog.id, filter.beforeId),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(filter.limit);
}
