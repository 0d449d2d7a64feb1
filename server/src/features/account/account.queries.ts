import type { GrievanceOfficer, Locale, PageSlug, PageText, SupportContact } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { users } from '../../db/schema';
import { readSettingRow, writeSettingRow } from '../../platform/settings.queries';

/** A page as stored in settings under `page:<slug>`. */
export interface StoredPage {
  texts: Partial<Record<Locale, PageText>>;
  contact: SupportContact | null;
  /** Privacy only; absent on pages saved before it existed. */
  grievance?: GrievanceOfficer | null;
}

const pageKey = (slug: PageSlug) => `page:${slug}`;

export async function getPage(db: Executor, slug: PageSlug, options: { forUpdate?: boolean } = {}) {
  const row = await readSettingRow(db, pageKey(slug), options);
  return row ? { value: row.value as StoredPage, updatedAt: row.updatedAt } : undefined;
}

export async function putPage(db: Executor, slug: PageSlug, value: StoredPage, at: Date) {
  await writeSettingRow(db, pageKey(slug), value, at);
}

/**
 * Money put on a deleted account after its deletion (the `credit_after_deletion` rule): every entry
 * raising a deleted user's wallet or hold in a posting made after `deleted_at`, the bank's return of
 * the user's own payout included (that goes to `platform_unclaimed`).
 */
export async function creditsAfterDeletion(db: Executor) {
  const result = await db.execute(sql`
    select p.id as posting_id, p.type, p.created_at, u.id as user_id, u.deleted_at, a.kind, e.amount::text as amount
    from ${users} u
    join accounts a on a.user_id = u.id
    join entries e on e.account_id = a.id and e.amount > 0
    join postings p on p.id = e.posting_id and p.created_at > u.deleted_at
    where u.deleted_at is not null
    order by p.id, e.id`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => ({
    postingId: String(r.posting_id),
    type: String(r.type),
    createdAt: new Date(r.created_at as string),
    userId: Number(r.user_id),
    deletedAt: new Date(r.deleted_at as string),
    kind: String(r.kind),
    amount: BigInt(r.amount as string),
  }));
}
