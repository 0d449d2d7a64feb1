import { DEFAULT_LOCALE, type Locale, type PageData, type PageSlug, type PageText } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError } from '../../platform/errors';
import { verifyPassword } from '../../platform/password';
import type { Actor } from '../../platform/routes';
import { findUserById } from '../users';
import { lockWallet } from '../wallet';
import type { StoredPage } from './account.queries';
import * as q from './account.queries';

const EMPTY_TEXT: PageText = { title: '', body: '', faq: [] };

/** The reader's locale when it has a title or a body, else English (issue 15: one fallback, like tasks). */
function textFor(texts: StoredPage['texts'], locale: Locale): PageText {
  const own = texts[locale];
  if (own && (own.title || own.body || own.faq.length > 0)) return own;
  return texts[DEFAULT_LOCALE] ?? EMPTY_TEXT;
}

/** A page as stored, or an empty one with no update time. */
export async function storedPage(db: Db, slug: PageSlug) {
  const row = await q.getPage(db, slug);
  return { page: row?.value ?? { texts: {}, contact: null }, updatedAt: row?.updatedAt ?? null };
}

export function createAccountService({ db, now }: { db: Db; now: () => Date }) {
  async function page(slug: PageSlug, locale: Locale): Promise<PageData> {
    const { page, updatedAt } = await storedPage(db, slug);
    const text = textFor(page.texts, locale);
    return {
      slug,
      title: text.title,
      body: text.body,
      faq: text.faq,
      contact: slug === 'help' ? (page.contact ?? { email: '', phone: '', hours: '' }) : null,
      updatedAt: updatedAt?.toISOString() ?? null,
    };
  }

  /**
   * Deletes the caller's account (DPDP Act 2023, right to erasure): the password again, no withdrawal
   * open (its money is still moving: wait for it or cancel it), then in one transaction every piece of
   * personal data erased or anonymised and every session ended. The ledger keeps its entries under the
   * user's id, which now names no one. Audited with no personal data in the record.
   */
  async function deleteAccount(actor: Actor, password: string) {
    const user = await findUserById(db, actor.id);
    if (!user || user.deletedAt) throw new AppError('unauthorized');
    if (!(await verifyPassword(user.passwordHash, password))) {
      throw new AppError('incorrect_password', { fields: { password: 'incorrect_password' } });
    }
    await db.transaction(async (tx) => {
      const locked = await q.lockLiveUser(tx, actor.id);
      if (!locked) throw new AppError('unauthorized');
      // The wallet's lock orders this after (or before) any withdrawal request in flight.
      const balance = await lockWallet(tx, actor.id);
      if ((await q.countOpenWithdrawals(tx, actor.id)) > 0) throw new AppError('account_delete_withdrawal_open');
      const at = now();
      await q.eraseUser(tx, locked, at);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'account.delete',
        target: `user:${actor.id}`,
        after: { deletedAt: at.toISOString(), balanceLeftPaise: balance.toString() },
        requestId: actor.requestId,
      });
    });
    return null;
  }

  return { page, deleteAccount };
}

export type AccountService = ReturnType<typeof createAccountService>;
