import { z } from 'zod';
import type { MessageKey } from './catalogue';
import {
  COMPLAINT_CATEGORIES,
  COMPLAINT_EVENT_KINDS,
  COMPLAINT_OUTCOMES,
  COMPLAINT_REPLY_MAX,
  COMPLAINT_STATES,
  COMPLAINT_SUBJECTS,
  COMPLAINT_TEXT_MAX,
  type ComplaintCategory,
  type ComplaintOutcome,
  type ComplaintState,
} from './constants';
import { endpoints } from './endpoints';
import { LOCALES } from './locales';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';
import { refuseBidi } from './validation';

/**
 * Complaints (grievances, docs/decisions/grievances.md): a user raises one about a withdrawal, a
 * wallet entry, a payout account or in general; operators acknowledge it, reply in the user's language
 * and close it with an outcome, within the deadlines of `COMPLAINT_ACK_HOURS` and
 * `COMPLAINT_RESOLVE_DAYS`.
 */

/** Catalogue keys of the names users and operators read, one per category, state and outcome. */
export const COMPLAINT_CATEGORY_KEYS = {
  withdrawal: 'complaint_category_withdrawal',
  reward: 'complaint_category_reward',
  payout_account: 'complaint_category_payout_account',
  privacy: 'complaint_category_privacy',
  other: 'complaint_category_other',
} as const satisfies Record<ComplaintCategory, MessageKey>;
export const COMPLAINT_STATE_KEYS = {
  open: 'complaint_state_open',
  acknowledged: 'complaint_state_acknowledged',
  closed: 'complaint_state_closed',
} as const satisfies Record<ComplaintState, MessageKey>;
export const COMPLAINT_OUTCOME_KEYS = {
  upheld: 'complaint_outcome_upheld',
  not_upheld: 'complaint_outcome_not_upheld',
  other: 'complaint_outcome_other',
} as const satisfies Record<ComplaintOutcome, MessageKey>;

const complaintId = z.coerce
  .number({ error: 'complaint_not_found' })
  .int('complaint_not_found')
  .positive('complaint_not_found')
  .max(Number.MAX_SAFE_INTEGER, 'complaint_not_found');

/** The object a complaint is about; it must be the caller's own. */
export const complaintSubject = z.object({
  kind: z.enum(COMPLAINT_SUBJECTS, { error: 'complaint_subject_not_found' }),
  id: z
    .number({ error: 'complaint_subject_not_found' })
    .int('complaint_subject_not_found')
    .positive('complaint_subject_not_found')
    .max(Number.MAX_SAFE_INTEGER, 'complaint_subject_not_found'),
});
export type ComplaintSubject = z.infer<typeof complaintSubject>;

export const complaintAddBody = z.object({
  category: z.enum(COMPLAINT_CATEGORIES, { error: 'complaint_category_required' }),
  text: z
    .string({ error: 'enter_complaint_text' })
    .trim()
    .min(1, 'enter_complaint_text')
    .max(COMPLAINT_TEXT_MAX, 'complaint_text_too_long'),
  subject: complaintSubject.optional(),
});
export type ComplaintAddBody = z.input<typeof complaintAddBody>;

/** One step of a complaint's history: raised, acknowledged, an operator's reply, closed. */
export const complaintEvent = z.object({
  kind: z.enum(COMPLAINT_EVENT_KINDS),
  at: z.string(),
  /** The user's text (raised), the operator's reply or closing text; null on an acknowledgement. */
  text: z.string().nullable(),
  /** Closed only. */
  outcome: z.enum(COMPLAINT_OUTCOMES).nullable(),
});
export type ComplaintEvent = z.infer<typeof complaintEvent>;

/** A complaint as its user sees it. */
export const complaintItem = z.object({
  id: z.number().int(),
  /** `KM-000123`. */
  number: z.string(),
  category: z.enum(COMPLAINT_CATEGORIES),
  state: z.enum(COMPLAINT_STATES),
  text: z.string(),
  /** The language it was raised in: operators reply in it. */
  locale: z.enum(LOCALES),
  subject: complaintSubject.nullable(),
  createdAt: z.string(),
  /** Raised + COMPLAINT_ACK_HOURS, and + COMPLAINT_RESOLVE_DAYS. */
  ackDueAt: z.string(),
  resolveDueAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  outcome: z.enum(COMPLAINT_OUTCOMES).nullable(),
});
export type ComplaintItem = z.infer<typeof complaintItem>;

export const complaintDetail = complaintItem.extend({ events: z.array(complaintEvent) });
export type ComplaintDetail = z.infer<typeof complaintDetail>;

/**
 * What the linked object is, beside the complaint in the console: a withdrawal (amount, state, the
 * account paid to, masked), a wallet entry (its posting type and amount) or a payout account.
 * `found` is false when it no longer exists (an account deleted since).
 */
export const complaintSubjectView = z.object({
  kind: z.enum(COMPLAINT_SUBJECTS),
  id: z.number().int(),
  found: z.boolean(),
  /** Rupees: the withdrawal's amount, the entry's signed amount; null for an account. */
  amount: z.string().nullable(),
  /** The withdrawal's state, or the entry's posting type. */
  state: z.string().nullable(),
  /** `UPI ab•••@okaxis` / `bank ••••1234`. */
  account: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type ComplaintSubjectView = z.infer<typeof complaintSubjectView>;

export const adminComplaintItem = complaintDetail.extend({
  userId: z.number().int(),
  username: z.string(),
  subjectView: complaintSubjectView.nullable(),
  /** Still not acknowledged past `ackDueAt`; not closed past `resolveDueAt`. */
  ackOverdue: z.boolean(),
  resolutionOverdue: z.boolean(),
});
export type AdminComplaintItem = z.infer<typeof adminComplaintItem>;

export const ADMIN_COMPLAINT_FILTERS = ['open', 'overdue', 'closed', 'all'] as const;
export type AdminComplaintFilter = (typeof ADMIN_COMPLAINT_FILTERS)[number];
export const adminComplaintListQuery = pageQuery.extend({
  /** open: not closed yet, oldest first (the deadline order); overdue: of those, past a deadline; closed/all: newest first. */
  state: z.enum(ADMIN_COMPLAINT_FILTERS, { error: 'validation_failed' }).default('open'),
});

/** The console's menu count and the banner every console page shows while no Grievance Officer is set. */
export const adminComplaintSummary = z.object({
  open: z.number().int(),
  overdue: z.number().int(),
  /** Name, e-mail and address set (docs/decisions/grievances.md): until then Help and Privacy name no one. */
  officerSet: z.boolean(),
});
export type AdminComplaintSummary = z.infer<typeof adminComplaintSummary>;

const replyText = z
  .string({ error: 'enter_complaint_reply' })
  .trim()
  .min(1, 'enter_complaint_reply')
  .max(COMPLAINT_REPLY_MAX, 'complaint_text_too_long');
const complaintIdBody = z.object({ id: complaintId });
export const adminComplaintReplyBody = complaintIdBody.extend({ text: replyText });
export const adminComplaintCloseBody = complaintIdBody.extend({
  outcome: z.enum(COMPLAINT_OUTCOMES, { error: 'complaint_outcome_required' }),
  text: replyText,
});

export const complaintRoutes = {
  complaintAdd: {
    ...endpoints.complaintAdd,
    policy: 'user',
    summary:
      'Raises a complaint (category, text, optionally one of the caller’s withdrawals, wallet entries or payout accounts) in the request’s language; answers its number and deadlines',
    tag: 'complaints',
    body: refuseBidi(complaintAddBody),
    data: complaintDetail,
    ok: 'complaint_raised',
  },
  complaintList: {
    ...endpoints.complaintList,
    policy: 'user',
    summary: 'The caller’s complaints, newest first',
    tag: 'complaints',
    query: pageQuery,
    data: pageOf(complaintItem),
  },
  complaintDetail: {
    ...endpoints.complaintDetail,
    policy: 'user',
    summary: 'One of the caller’s complaints with its history',
    tag: 'complaints',
    query: z.object({ id: complaintId }),
    data: complaintDetail,
  },
  adminComplaintList: {
    ...endpoints.adminComplaintList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Complaints with their linked object, deadlines and overdue flags',
    tag: 'complaints',
    query: adminComplaintListQuery,
    data: pageOf(adminComplaintItem),
  },
  adminComplaintSummary: {
    ...endpoints.adminComplaintSummary,
    policy: 'admin',
    roles: STAFF,
    summary: 'Open and overdue complaints, and whether the Grievance Officer is set',
    tag: 'complaints',
    data: adminComplaintSummary,
  },
  adminComplaintAcknowledge: {
    ...endpoints.adminComplaintAcknowledge,
    policy: 'admin',
    roles: STAFF,
    summary: 'Acknowledges an open complaint; the user is notified; audited',
    tag: 'complaints',
    body: complaintIdBody,
    data: adminComplaintItem,
    ok: 'complaint_acknowledged',
  },
  adminComplaintReply: {
    ...endpoints.adminComplaintReply,
    policy: 'admin',
    roles: STAFF,
    summary: 'Replies to a complaint not closed (acknowledging it if it was not); the user is notified; audited',
    tag: 'complaints',
    body: refuseBidi(adminComplaintReplyBody),
    data: adminComplaintItem,
    ok: 'complaint_reply_sent',
  },
  adminComplaintClose: {
    ...endpoints.adminComplaintClose,
    policy: 'admin',
    roles: STAFF,
    summary: 'Closes a complaint with an outcome and a text for the user; the user is notified; audited',
    tag: 'complaints',
    body: refuseBidi(adminComplaintCloseBody),
    data: adminComplaintItem,
    ok: 'complaint_closed',
  },
} as const satisfies Record<string, RouteDef>;
