import type { AdminPageData, GrievanceOfficer, PageSlug, SupportContact } from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import type { Actor } from '../../platform/routes';
import type { StoredPage } from './account.queries';
import * as q from './account.queries';
import { storedOfficer, storedPage } from './account.service';

/** The operators' side of the account feature: the Help, Terms and Privacy pages they edit. */
export function createAccountAdmin({ db, now }: { db: Db; now: () => Date }) {
  async function page(slug: PageSlug): Promise<AdminPageData> {
    const { page, updatedAt } = await storedPage(db, slug);
    return {
      slug,
      texts: page.texts,
      contact: slug === 'help' ? (page.contact ?? { email: '', phone: '', hours: '' }) : null,
      grievance: slug === 'privacy' ? storedOfficer(page) : null,
      updatedAt: updatedAt?.toISOString() ?? null,
    };
  }

  /** Replaces a page's texts (empty locales dropped, so they fall back to English); audited. */
  async function setPage(
    actor: Actor,
    input: { slug: PageSlug; texts: StoredPage['texts']; contact?: SupportContact; grievance?: GrievanceOfficer },
  ): Promise<AdminPageData> {
    const texts = Object.fromEntries(
      Object.entries(input.texts).filter(([, t]) => t && (t.title || t.body || t.faq.length > 0)),
    ) as StoredPage['texts'];
    await db.transaction(async (tx) => {
      const before = await q.getPage(tx, input.slug, { forUpdate: true });
      const value: StoredPage = {
        texts,
        contact: input.slug === 'help' ? (input.contact ?? before?.value.contact ?? null) : null,
        grievance: input.slug === 'privacy' ? (input.grievance ?? before?.value.grievance ?? null) : null,
      };
      await q.putPage(tx, input.slug, value, now());
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'page.set',
        target: `page:${input.slug}`,
        before: before?.value ?? null,
        after: value,
        requestId: actor.requestId,
      });
    });
    return page(input.slug);
  }

  return { page, setPage };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;
