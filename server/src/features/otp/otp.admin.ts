import type { PageQuery } from '@kamai/contract';
import { writeAudit } from '../../platform/audit.queries';
import { decodeCursor, isRowId, keysetPage } from '../../platform/cursor';
import { AppError } from '../../platform/errors';
import type { Actor } from '../../platform/routes';
import * as q from './otp.queries';
import type { OtpServiceDeps } from './otp.service';

/** The operators' side of verification codes: the delivery log and the sandbox's outbox. */
export function createOtpAdmin(deps: Pick<OtpServiceDeps, 'db' | 'config' | 'senders'>) {
  // Live codes readable over the API only while they go nowhere real, and never in production
  // (docs/decisions/production-mode.md).
  const outboxOpen = (deps.senders.sms.sandbox || deps.senders.email.sandbox) && deps.config.NODE_ENV !== 'production';
  async function deliveries({ limit, cursor, target }: PageQuery & { target?: string }) {
    const beforeId = decodeCursor(cursor, isRowId);
    const rows = await q.listDeliveries(deps.db, { limit: limit + 1, beforeId, target });
    const page = keysetPage(rows, limit, (row) => row.id);
    const items = page.items.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
    return { items, nextCursor: page.nextCursor };
  }

  /** The sandbox's codes, for operators testing without a real sender; each read is audited. */
  async function outbox(reader: Actor, { limit, cursor }: PageQuery) {
    if (!outboxOpen) throw new AppError('route_not_found');
    const beforeId = decodeCursor(cursor, isRowId);
    return deps.db.transaction(async (tx) => {
      const rows = await q.listOutbox(tx, limit + 1, beforeId);
      const page = keysetPage(rows, limit, (row) => row.id);
      const items = page.items.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
      await writeAudit(tx, {
        actorId: reader.id,
        action: 'otp.outbox.read',
        target: 'otp:outbox',
        after: { codes: items.length, targets: items.map((item) => item.target) },
        requestId: reader.requestId,
      });
      return { items, nextCursor: page.nextCursor };
    });
  }

  return { deliveries, outbox };
}

export type OtpAdmin = ReturnType<typeof createOtpAdmin>;
