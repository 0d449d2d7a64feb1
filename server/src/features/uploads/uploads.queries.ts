import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { uploads } from '../../db/schema';

export type UploadPurpose = (typeof uploads.$inferInsert)['purpose'];

export async function insertUpload(db: Executor, values: { name: string; ownerId: number; purpose: UploadPurpose }) {
  await db.insert(uploads).values(values).onConflictDoNothing();
}

/** The purposes the file `name` was stored for (empty: no one stored it). */
export async function purposesOf(db: Executor, name: string) {
  const rows = await db.selectDistinct({ purpose: uploads.purpose }).from(uploads).where(eq(uploads.name, name));
  return rows.map((r) => r.purpose);
}

export async function ownsUpload(db: Executor, name: string, ownerId: number, purpose: UploadPurpose) {
  const [row] = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.name, name), eq(uploads.ownerId, ownerId), eq(uploads.purpose, purpose)))
    .limit(1);
  return row !== undefined;
}

/**
 * Drops the user's proof uploads (account deletion) and answers the names no one else stored, whose
 * files may go too.
 */
export async function deleteProofUploads(db: Executor, ownerId: number) {
  const gone = await db
    .delete(uploads)
    .where(and(eq(uploads.ownerId, ownerId), eq(uploads.purpose, 'proof')))
    .returning({ name: uploads.name });
  const names = [...new Set(gone.map((r) => r.name))];
  if (names.length === 0) return [];
  const kept = await db.selectDistinct({ name: uploads.name }).from(uploads).where(inArray(uploads.name, names));
  const keep = new Set(kept.map((r) => r.name));
  return names.filter((n) => !keep.has(n));
}
