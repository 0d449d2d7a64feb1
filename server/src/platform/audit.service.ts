import type { AuditItem, PageQuery } from '@kamai/contract';
import { type AuditFilter, listAudit } from './audit.queries';
import { decodeCursor, isRowId, keysetPage } from './cursor';
import type { ReplicaReads } from './replica-reads';

type ListQuery = PageQuery & Omit<AuditFilter, 'beforeId' | 'limit'>;

/** Reads the audit log; it has no write path here (admin actions write it in their own transactions). */
export function createAuditService({ replica }: { replica: ReplicaReads }) {
  /** A console list: on a replica when one is caught up, unless `reader` changed something just now. */
  async function list(query: ListQuery, reader: number) {
    const beforeId = decodeCursor(query.cursor, isRowId);
    const rows = await replica.read(reader, (db) =>
      listAudit(db, {
        actorId: query.actorId,
        action: query.action,
        target: query.target,
        from: query.from,
        to: query.to,
        beforeId,
        limit: query.limit + 1,
      }),
    );
    const page = keysetPage(rows, query.limit, (row) => row.id);
    const items: AuditItem[] = page.items.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
    return { items, nextCursor: page.nextCursor };
  }

  return { list };
}

export type AuditService = ReturnType<typeof createAuditService>;
