import type { AuditItem, PageQuery } from '@kamai/contract';
import type { Db } from '../db/client';
import { type AuditFilter, listAudit } from './audit.queries';
import { decodeCursor, encodeCursor, isRowId } from './cursor';

type ListQuery = PageQuery & Omit<AuditFilter, 'beforeId' | 'limit'>;

/** Reads the audit log; it has no write path here (admin actions write it in their own transactions). */
export function createAuditService({ db }: { db: Db }) {
  async function list(query: ListQuery) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await listAudit(db, {
      actorId: query.actorId,
      action: query.action,
      target: query.target,
      from: query.from,
      to: query.to,
      beforeId,
      limit: query.limit + 1,
    });
    const items: AuditItem[] = rows.slice(0, query.limit).map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
    }));
    const last = items.at(-1);
    return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last.id) : null };
  }

  return { list };
}

export type AuditService = ReturnType<typeof createAuditService>;
