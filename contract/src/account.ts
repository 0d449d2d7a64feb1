import { z } from 'zod';
import { dataExportData } from './data-export';
import { endpoints } from './endpoints';
import { CONTACT_EMAIL_RE } from './formats';
import { LOCALES } from './locales';
import type { RouteDef } from './route-def';
import { refuseBidi } from './validation';

/**
 * Pages an operator writes in the console and users read from My (docs/decisions/help-and-legal-pages.md): Help
 * (support contact
 * and FAQ), Terms and Privacy. Texts are kept per locale; a locale left empty shows the English text.
 */
export const PAGE_SLUGS = ['help', 'terms', 'privacy'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];
export const PAGE_TITLE_MAX = 120;
export const PAGE_BODY_MAX = 20_000;
export const PAGE_FAQ_MAX = 30;

const faqItem = z.object({
  question: z.string().trim().min(1, 'validation_failed').max(300, 'validation_failed'),
  answer: z.string().trim().min(1, 'validation_failed').max(2000, 'validation_failed'),
});

/** One locale's text of a page. */
export const pageText = z.object({
  title: z.string().trim().max(PAGE_TITLE_MAX, 'validation_failed').default(''),
  body: z.string().trim().max(PAGE_BODY_MAX, 'validation_failed').default(''),
  faq: z.array(faqItem).max(PAGE_FAQ_MAX, 'validation_failed').default([]),
});
export type PageText = z.output<typeof pageText>;

const contactEmail = z
  .string()
  .trim()
  .max(254, 'enter_valid_email')
  .regex(CONTACT_EMAIL_RE, 'enter_valid_email')
  .default('');

/** A phone number as people write it, e.g. "+91 98100 00000" (shown as typed). */
const contactPhone = z
  .string()
  .trim()
  .max(30, 'validation_failed')
  .regex(/^[+\d\s()-]*$/, 'invalid_phone_number_format')
  .default('');

/** The support contact on the Help page (any part may be empty). */
export const supportContact = z.object({
  email: contactEmail,
  phone: contactPhone,
  /** When support answers, in the operator's words, e.g. "Mon-Sat 10:00-18:00 IST". */
  hours: z.string().trim().max(100, 'validation_failed').default(''),
});
export type SupportContact = z.output<typeof supportContact>;

/**
 * The Grievance Officer (IT Rules 2021, rule 3(2); DPDP Act 2023, s. 13; docs/decisions/grievances.md):
 * an operator enters them with the Privacy page in the console. Help and Privacy publish the block only
 * once the name, the e-mail and the address are set (`grievanceOfficerSet`); the phone is optional.
 */
export const grievanceOfficer = z.object({
  name: z.string().trim().max(100, 'validation_failed').default(''),
  email: contactEmail,
  phone: contactPhone,
  /** The postal address complaints can be sent to; line breaks kept. */
  address: z.string().trim().max(500, 'validation_failed').default(''),
});
export type GrievanceOfficer = z.output<typeof grievanceOfficer>;

/** Whether the officer can be published: name, e-mail and address (the phone is optional). */
export function grievanceOfficerSet(officer: Partial<GrievanceOfficer> | null | undefined): boolean {
  return Boolean(officer?.name && officer.email && officer.address);
}

const slugField = z.enum(PAGE_SLUGS, { error: 'page_not_found' });

export const pageSlugQuery = z.object({ slug: slugField });

/** A page in the reader's language (English where the operator left that language empty). */
export const pageData = z.object({
  slug: z.enum(PAGE_SLUGS),
  title: z.string(),
  body: z.string(),
  faq: z.array(z.object({ question: z.string(), answer: z.string() })),
  /** Help only; null elsewhere. */
  contact: supportContact.nullable(),
  /** Help and Privacy: the Grievance Officer once name, e-mail and address are set; null until then and elsewhere. */
  grievance: grievanceOfficer.nullable(),
  updatedAt: z.string().nullable(),
});
export type PageData = z.infer<typeof pageData>;

export const adminPageData = z.object({
  slug: z.enum(PAGE_SLUGS),
  texts: z.partialRecord(z.enum(LOCALES), pageText),
  contact: supportContact.nullable(),
  grievance: grievanceOfficer.nullable(),
  /** Null until an operator saves the page: the texts are the fresh install's defaults. */
  updatedAt: z.string().nullable(),
});
export type AdminPageData = z.infer<typeof adminPageData>;

export const adminPageSetBody = z
  .object({
    slug: slugField,
    texts: z.partialRecord(z.enum(LOCALES), pageText),
    contact: supportContact.optional(),
    /** Privacy only. */
    grievance: grievanceOfficer.optional(),
  })
  .refine((b) => Boolean(b.texts.en_US?.title), { message: 'page_title_required', path: ['texts', 'en_US', 'title'] });
export type AdminPageSetBody = z.input<typeof adminPageSetBody>;

/** Deleting the account asks for the password again (India's DPDP Act 2023, right to erasure). */
export const accountDeleteBody = z.object({
  password: z.string({ error: 'enter_password' }).min(1, 'enter_password').max(128),
});

export const accountRoutes = {
  pageDetail: {
    ...endpoints.pageDetail,
    policy: 'public',
    summary: 'Help, Terms or Privacy in the caller’s language, as the operator wrote it',
    tag: 'account',
    query: pageSlugQuery,
    data: pageData,
  },
  accountDelete: {
    ...endpoints.accountDelete,
    policy: 'user',
    summary:
      "Deletes the caller's account: personal data erased or anonymised, every session ended, the ledger kept under an anonymous id. Refused while a withdrawal is open",
    tag: 'account',
    body: accountDeleteBody,
    data: z.null(),
    ok: 'account_deleted',
  },
  accountExport: {
    ...endpoints.accountExport,
    policy: 'user',
    summary:
      "Download my data (DPDP Act 2023, s. 11): the caller's profile, payout accounts (masked), ledger, withdrawals, tasks, invites and notices read; a few an hour",
    tag: 'account',
    data: dataExportData,
  },
  adminPageGet: {
    ...endpoints.adminPageGet,
    policy: 'admin',
    summary: 'A page with every locale text',
    tag: 'account',
    query: pageSlugQuery,
    data: adminPageData,
  },
  adminPageSet: {
    ...endpoints.adminPageSet,
    policy: 'admin',
    summary: 'Replaces a page’s texts (and Help’s contact); audited',
    tag: 'account',
    body: refuseBidi(adminPageSetBody),
    data: adminPageData,
  },
} as const satisfies Record<string, RouteDef>;
