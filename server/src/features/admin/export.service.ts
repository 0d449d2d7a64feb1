import { Readable } from 'node:stream';
import { formatRupees, MOVEMENT_EXPORT_COLUMNS, USER_EXPORT_COLUMNS, WITHDRAWAL_EXPORT_COLUMNS } from '@kamai/contract';
import type { ReplicaReads } from '../../platform/replica-reads';
import type { StreamAnswer } from '../../platform/routes';
import { csvLine, csvText, csvValue } from './csv';
import * as q from './export.queries';

/** Rows per query: one batch's text (~150 KB) is all the export holds at a time. */
export const EXPORT_BATCH_ROWS = 1000;

interface Range {
  from?: Date;
  to?: Date;
}

const money = (paise: bigint | null) => (paise === null ? '' : formatRupees(paise));

/**
 * Yields the header, then one chunk of CSV lines per keyset batch. Each batch is its own short query,
 * not one long transaction: on PGlite a transaction would hold its only connection for the whole
 * download. So the file is not one snapshot; rows are never repeated or skipped, and rows that arrive
 * during the download past the resume point may be included.
 */
async function* csvBatches<Row extends q.Resume>(
  header: readonly string[],
  fetch: (after: q.Resume | undefined) => Promise<Row[]>,
  line: (row: Row) => string,
): AsyncGenerator<string> {
  yield csvLine(header);
  let after: q.Resume | undefined;
  for (;;) {
    const rows = await fetch(after);
    if (rows.length > 0) yield rows.map(line).join('');
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH_ROWS) return;
    after = { at: last.at, id: last.id };
  }
}

function fileName(kind: string, now: Date) {
  return `${kind}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.csv`;
}

/** Exports are read on a replica when one is caught up (each batch chooses again), else on the primary. */
export function createExportService({ replica, now }: { replica: ReplicaReads; now: () => Date }) {
  function users(range: Range, reader: number): StreamAnswer {
    const rows = csvBatches(
      USER_EXPORT_COLUMNS,
      (after) => replica.read(reader, (db) => q.userBatch(db, { ...range, after, limit: EXPORT_BATCH_ROWS })),
      (u) =>
        csvLine([
          csvValue(u.id),
          csvText(u.username),
          csvValue(u.inviteCode),
          csvValue(u.role),
          csvValue(u.frozen),
          csvValue(u.inviterId),
          csvValue(u.createdAt.toISOString()),
          money(u.balance ?? 0n),
          money(u.hold ?? 0n),
        ]),
    );
    return { filename: fileName('users', now()), body: Readable.from(rows, { objectMode: false }) };
  }

  function movements(range: Range, reader: number): StreamAnswer {
    const rows = csvBatches(
      MOVEMENT_EXPORT_COLUMNS,
      (after) => replica.read(reader, (db) => q.movementBatch(db, { ...range, after, limit: EXPORT_BATCH_ROWS })),
      (m) =>
        csvLine([
          csvValue(m.id),
          csvValue(m.createdAt.toISOString()),
          csvValue(m.userId),
          csvText(m.username),
          csvValue(m.account),
          csvValue(m.type),
          money(m.amount),
          money(m.balanceAfter),
          csvValue(m.postingId),
          csvValue(JSON.stringify(m.ref)),
        ]),
    );
    return { filename: fileName('movements', now()), body: Readable.from(rows, { objectMode: false }) };
  }

  function withdrawals(range: Range, reader: number): StreamAnswer {
    const time = (at: Date | null) => csvValue(at?.toISOString());
    const rows = csvBatches(
      WITHDRAWAL_EXPORT_COLUMNS,
      (after) => replica.read(reader, (db) => q.withdrawalBatch(db, { ...range, after, limit: EXPORT_BATCH_ROWS })),
      (w) =>
        csvLine([
          csvValue(w.id),
          time(w.createdAt),
          csvValue(w.userId),
          csvText(w.username),
          csvValue(w.state),
          money(w.amount),
          csvValue(w.accountType),
          csvText(w.ifsc),
          csvText(w.accountNo),
          csvText(w.accountName),
          csvText(w.reason),
          csvText(w.reference),
          csvValue(w.reviewerId),
          time(w.reviewedAt),
          time(w.finishedAt),
        ]),
    );
    return { filename: fileName('withdrawals', now()), body: Readable.from(rows, { objectMode: false }) };
  }

  return { users, movements, withdrawals };
}

export type ExportService = ReturnType<typeof createExportService>;
