import type { AuditItem, PageQuery } from '@kamai/contract';
import type { Db } from '../db/client';
import { type AuditFilter, listAudit } from './audit.queries';
import { decodeCursor, isRowId, keysetPage } from './cursor';

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
    const page = keysetPage(rows, query.limit, (row) => row.id);
    const items: AuditItem[] = page.items.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    return { items, nextCursor: page.nextCursor };
  }

  return { list };
}

export type AuditService = ReturnType<typeof createAuditService>;
