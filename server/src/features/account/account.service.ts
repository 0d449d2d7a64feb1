import {
  canonicalIdentity,
  DEFAULT_LOCALE,
  type GrievanceOfficer,
  grievanceOfficerSet,
  type Locale,
  type PageData,
  type PageSlug,
  type PageText,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import { verifyPassword } from '../../platform/password';
import type { Actor } from '../../platform/routes';
import { eraseValidationsOf, numberHashInput, unhashedValidationsOf } from '../payout-accounts';
import { rejectPendingProofs } from '../tasks';
import type { UploadFiles } from '../uploads';
import { createIdentityLedger, findUserById, lockLiveUser } from '../users';
import { lockWallet } from '../wallet';
import { countOpenWithdrawals } from '../withdrawals';
import { eraseUser } from './account.erase';
import type { StoredPage } from './account.queries';
import * as q from './account.queries';
import { defaultPageTexts } from './default-pages';

const EMPTY_TEXT: PageText = { title: '', body: '', faq: [] };

/** The reader's locale when it has a title or a body, else English (one fallback, like tasks). */
function textFor(texts: StoredPage['texts'], locale: Locale): PageText {
  const own = texts[locale];
  if (own && (own.title || own.body || own.faq.length > 0)) return own;
  return texts[DEFAULT_LOCALE] ?? EMPTY_TEXT;
}

const NO_GRIEVANCE: GrievanceOfficer = { name: '', email: '', phone: '', address: '' };

/** The Grievance Officer as an operator entered them on Privacy (parts left empty, or saved before they existed, are ''). */
export function storedOfficer(page: StoredPage): GrievanceOfficer {
  return { ...NO_GRIEVANCE, ...page.grievance };
}

/**
 * The Grievance Officer a reader sees on Help and Privacy: only once name, e-mail and address are set
 * (docs/decisions/grievances.md); null until then and on Terms.
 */
async function publishedOfficer(db: Db, slug: PageSlug): Promise<GrievanceOfficer | null> {
  if (slug !== 'help' && slug !== 'privacy') return null;
  return grievanceOfficerOf(db);
}

/** The Grievance Officer once complete enough to publish, else null (also the console's banner and the complaints feature). */
export async function grievanceOfficerOf(db: Db): Promise<GrievanceOfficer | null> {
  const officer = storedOfficer((await storedPage(db, 'privacy')).page);
  return grievanceOfficerSet(officer) ? officer : null;
}

/** A page as stored or, until an operator saves it, the fresh install's text in six languages (no update time). */
export async function storedPage(db: Db, slug: PageSlug) {
  const row = await q.getPage(db, slug);
  const fresh: StoredPage = { texts: defaultPageTexts(slug), contact: null, grievance: null };
  return { page: row?.value ?? fresh, updatedAt: row?.updatedAt ?? null };
}

export function createAccountService({
  db,
  now,
  uploads,
  identitySecret,
  previousIdentitySecrets = [],
}: {
  db: Db;
  now: () => Date;
  /** The deleted account's proof screenshots go with it. */
  uploads: Pick<UploadFiles, 'dropProofsOf' | 'removeFiles'>;
  identitySecret: string | undefined;
  /** The keys of an identity-key rotation under way (`IDENTITY_HASH_SECRET_PREVIOUS`). */
  previousIdentitySecrets?: readonly string[];
}) {
  const identities = createIdentityLedger(db, identitySecret, previousIdentitySecrets);

  async function page(slug: PageSlug, locale: Locale): Promise<PageData> {
    const { page, updatedAt } = await storedPage(db, slug);
    const text = textFor(page.texts, locale);
    return {
      slug,
      title: text.title,
      body: text.body,
      faq: text.faq,
      contact: slug === 'help' ? (page.contact ?? { email: '', phone: '', hours: '' }) : null,
      grievance: await publishedOfficer(db, slug),
      updatedAt: updatedAt?.toISOString() ?? null,
    };
  }

  /**
   * Deletes the caller's account (DPDP Act 2023, right to erasure): the password again, no withdrawal
   * open (its money is still moving: wait for it or cancel it), then in one transaction every piece of
   * personal data erased or anonymised and every session ended. The ledger keeps its entries under the
   * user's id, which now names no one. Audited with no personal data in the record. The identity's
   * keyed hash stays in the identity ledger (one phone, one friend, ever) and the proof screenshots'
   * files are deleted once the transaction committed; the account checks keep only what the ledger and
   * duplicate detection need (docs/decisions/account-deletion.md).
   */
  async function deleteAccount(actor: Actor, password: string) {
    const user = await findUserById(db, actor.id);
    if (!user || user.deletedAt) throw new AppError('unauthorized');
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new AppError('incorrect_password', { fields: { password: 'incorrect_password' } });
    }
    const identity = await identities.hashesOf(canonicalIdentity(user.username));
    // Checks made before numbers were hashed get their keyed hash now, before the number is erased.
    const numberHashes = new Map<number, string>();
    for (const v of await unhashedValidationsOf(db, actor.id)) {
      numberHashes.set(v.id, await identities.hashOf(numberHashInput(v)));
    }
    const files = await db.transaction(async (tx) => {
      const locked = await lockLiveUser(tx, actor.id);
      if (!locked) throw new AppError('unauthorized');
      // The wallet's lock orders this after (or before) any withdrawal request in flight.
      const balance = await lockWallet(tx, actor.id);
      if ((await countOpenWithdrawals(tx, actor.id)) > 0) throw new AppError('account_delete_withdrawal_open');
      const at = now();
      // Accounts registered before the ledger existed are recorded now, before the phone is gone.
      await identities.record(tx, identity);
      const proofsRejected = await rejectPendingProofs(tx, actor.id, at);
      await eraseUser(tx, locked, at);
      await eraseValidationsOf(tx, actor.id, numberHashes, at);
      const orphaned = await uploads.dropProofsOf(tx, actor.id);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'account.delete',
        target: `user:${actor.id}`,
        after: { deletedAt: at.toISOString(), balanceLeftPaise: balance.toString(), proofsRejected },
        requestId: actor.requestId,
      });
      return orphaned;
    });
    await uploads.removeFiles(files);
    return null;
  }

  return { page, deleteAccount };
}

export type AccountService = ReturnType<typeof createAccountService>;
