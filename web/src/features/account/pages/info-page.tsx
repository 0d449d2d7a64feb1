import type { PageSlug } from '@kamai/contract';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { ComplaintsEntry } from '../../complaints';
import { usePage } from '../api/account';
import '../account.css';

/** A phone number as typed ("+91 98100 00000") as a link the phone dials. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** Help (support contact and FAQ), Terms or Privacy: the operator's text, paragraphs kept. */
export function InfoPage({ slug }: { slug: PageSlug }) {
  const { t } = useTranslation(['users', 'common']);
  const page = usePage(slug);
  if (page.isPending) return <SkeletonRows rows={4} label={t('common:dialog.loading')} />;
  if (page.isError) return <EmptyState title={t('common:request.failed')} />;
  const { title, body, faq, contact, grievance } = page.data;
  const hasContact = Boolean(contact && (contact.email || contact.phone || contact.hours));
  if (!title && !body && faq.length === 0 && !hasContact) {
    return <EmptyState title={t('info.empty.title')} description={t('info.empty.description')} />;
  }
  return (
    <article className="stack info-page">
      {title && <h2 className="info-title wrap-anywhere">{title}</h2>}
      {body
        .split(/\n{2,}/)
        .filter(Boolean)
        .map((paragraph) => (
          <p key={paragraph.slice(0, 40)} className="info-text wrap-anywhere">
            {paragraph}
          </p>
        ))}
      {hasContact && contact && (
        <section className="info-card" aria-labelledby="info-contact">
          <h3 id="info-contact" className="info-subtitle text-15">
            {t('info.contact')}
          </h3>
          {contact.email && (
            <p className="info-text wrap-anywhere">
              {t('info.email')} <a href={`mailto:${contact.email}`}>{contact.email}</a>
            </p>
          )}
          {contact.phone && (
            <p className="info-text wrap-anywhere">
              {t('info.phone')} <a href={telHref(contact.phone)}>{contact.phone}</a>
            </p>
          )}
          {contact.hours && (
            <p className="info-text wrap-anywhere">
              {t('info.hours')} {contact.hours}
            </p>
          )}
        </section>
      )}
      {slug === 'help' && <ComplaintsEntry />}
      {grievance && (
        <section className="info-card" aria-labelledby="info-grievance">
          <h3 id="info-grievance" className="info-subtitle text-15">
            {t('info.grievance')}
          </h3>
          <p className="info-text">{t('info.grievanceNote')}</p>
          <p className="info-text semibold wrap-anywhere">{grievance.name}</p>
          <p className="info-text wrap-anywhere">
            {t('info.email')} <a href={`mailto:${grievance.email}`}>{grievance.email}</a>
          </p>
          {grievance.phone && (
            <p className="info-text wrap-anywhere">
              {t('info.phone')} <a href={telHref(grievance.phone)}>{grievance.phone}</a>
            </p>
          )}
          <p className="info-text info-address wrap-anywhere">
            {t('info.address')} {grievance.address}
          </p>
        </section>
      )}
      {faq.length > 0 && (
        <section className="info-card" aria-labelledby="info-faq">
          <h3 id="info-faq" className="info-subtitle text-15">
            {t('info.faq')}
          </h3>
          {faq.map((item) => (
            <details key={item.question} className="info-faq">
              <summary className="semibold wrap-anywhere">{item.question}</summary>
              <p className="info-text wrap-anywhere">{item.answer}</p>
            </details>
          ))}
        </section>
      )}
    </article>
  );
}
