import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { NOTICE_SEEN_MAX } from './constants';
import { endpoints } from './endpoints';
import { LOCALES, type Locale } from './locales';
import { formatRupees, parseRupees } from './money';
import { pageOf, pageQuery } from './pagination';
import type { RouteDef } from './route-def';
import { UPLOAD_TYPES, UPLOADS_URL_PREFIX } from './uploads';
import { isoTimeField, refuseBidi } from './validation';

/** A user's own notifications (table `notifications`), made by the changes they report. */
export const NOTIFICATION_KINDS = [
  'withdrawal_approved',
  'withdrawal_processing',
  'withdrawal_rejected',
  'withdrawal_paid',
  'withdrawal_failed',
  'withdrawal_reversed',
  'reward_credited',
  'withdrawal_cancelled',
  'task_proof_approved',
  'task_proof_rejected',
  'password_changed',
  'complaint_acknowledged',
  'complaint_replied',
  'complaint_closed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Catalogue keys of each notification's title and body. Bodies use `{{amount}}` (rupees; a paid
 * withdrawal `{{net}}`, the amount less the fee) and, for
 * rejected and failed withdrawals, `{{reason}}`, filled from the notification's params.
 */
export const NOTIFICATION_TEXT = {
  withdrawal_approved: {
    title: 'notification_withdrawal_approved_title',
    body: 'notification_withdrawal_approved_body',
  },
  withdrawal_processing: {
    title: 'notification_withdrawal_processing_title',
    body: 'notification_withdrawal_processing_body',
  },
  withdrawal_rejected: {
    title: 'notification_withdrawal_rejected_title',
    body: 'notification_withdrawal_rejected_body',
  },
  withdrawal_paid: { title: 'notification_withdrawal_paid_title', body: 'notification_withdrawal_paid_body' },
  withdrawal_failed: { title: 'notification_withdrawal_failed_title', body: 'notification_withdrawal_failed_body' },
  withdrawal_reversed: {
    title: 'notification_withdrawal_reversed_title',
    body: 'notification_withdrawal_reversed_body',
  },
  reward_credited: { title: 'notification_reward_credited_title', body: 'notification_reward_credited_body' },
  withdrawal_cancelled: {
    title: 'notification_withdrawal_cancelled_title',
    body: 'notification_withdrawal_cancelled_body',
  },
  task_proof_approved: {
    title: 'notification_task_proof_approved_title',
    body: 'notification_task_proof_approved_body',
  },
  task_proof_rejected: {
    title: 'notification_task_proof_rejected_title',
    body: 'notification_task_proof_rejected_body',
  },
  password_changed: {
    title: 'notification_password_changed_title',
    body: 'notification_password_changed_body',
  },
  complaint_acknowledged: {
    title: 'notification_complaint_acknowledged_title',
    body: 'notification_complaint_acknowledged_body',
  },
  complaint_replied: {
    title: 'notification_complaint_replied_title',
    body: 'notification_complaint_replied_body',
  },
  complaint_closed: {
    title: 'notification_complaint_closed_title',
    body: 'notification_complaint_closed_body',
  },
} as const satisfies Record<NotificationKind, { title: MessageKey; body: MessageKey }>;

/**
 * The variables a notification's text is filled with: its params as text, `amount` and `reason` empty
 * when absent, and `net`, what reaches the user's account (amount − fee), for a withdrawal notification
 * made before `net` was stored. A paid withdrawal's text quotes `net`, the money actually paid.
 */
export function notificationVars(params: Record<string, string | number | null>): Record<string, string> {
  const vars: Record<string, string> = { amount: '', reason: '' };
  for (const [name, value] of Object.entries(params)) vars[name] = value === null ? '' : String(value);
  if (!vars.net && vars.amount) {
    const amount = parseRupees(vars.amount);
    const fee = vars.fee ? parseRupees(vars.fee) : 0n;
    if (amount !== undefined && fee !== undefined) vars.net = formatRupees(amount - fee);
  }
  return vars;
}

/** /List1 carries two kinds of item: operators' notices and the caller's own notifications. */
export const INBOX_KINDS = ['notice', 'notification'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export const NOTICE_TITLE_MAX = 120;
export const NOTICE_BODY_MAX = 10_000;

export const inboxItem = z.object({
  kind: z.enum(INBOX_KINDS),
  /** Unique within its kind: open it with `notice/detail?kind=&id=`. */
  id: z.number().int(),
  /** Notices: the operator's translation for the request's language, else English; notifications: in the request's language. */
  title: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  /** Pinned notices come first; notifications are never pinned. */
  pinned: z.boolean(),
  read: z.boolean(),
  /** Publish time of a notice, creation time of a notification. */
  createdAt: z.string(),
  /** Notifications only: the kind (one of NOTIFICATION_KINDS) and the values its text was made from. */
  notification: z
    .object({ type: z.string(), params: z.record(z.string(), z.union([z.string(), z.number(), z.null()])) })
    .nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

export const noticeListQuery = pageQuery.extend({
  /** Only one kind; both when absent. */
  kind: z.enum(INBOX_KINDS, { error: 'validation_failed' }).optional(),
});
const idField = z.coerce.number({ error: 'notice_not_found' }).int('notice_not_found').positive('notice_not_found');
export const noticeDetailQuery = z.object({
  id: idField,
  kind: z.enum(INBOX_KINDS, { error: 'validation_failed' }).default('notice'),
});
const seenIds = z
  .array(z.number({ error: 'validation_failed' }).int('validation_failed').positive('validation_failed'), {
    error: 'validation_failed',
  })
  .max(NOTICE_SEEN_MAX, 'validation_failed')
  .default([]);
/** What the inbox list has shown the user: notices and notifications, by id. */
export const noticeSeenBody = z.object({ notices: seenIds, notifications: seenIds });
export type NoticeSeenBody = z.input<typeof noticeSeenBody>;

export const unreadData = z.object({
  /** What the Profile entry shows: unread notices + unread notifications. */
  count: z.number().int(),
  notices: z.number().int(),
  notifications: z.number().int(),
});

/**
 * A notice's image: only one of this app's own uploaded images (`/uploads/<sha256>.png|jpg|webp`, what
 * the console's upload answers), never `http://` or another host: the app's Content-Security-Policy
 * loads images from itself only, and a third-party image would tell that site who reads the notice.
 */
export const NOTICE_IMAGE_URL_RE = new RegExp(
  `^${UPLOADS_URL_PREFIX}[0-9a-f]{64}\\.(?:${Object.values(UPLOAD_TYPES)
    .filter((t) => t.ext !== 'mp4')
    .map((t) => t.ext)
    .join('|')})$`,
);
const imageUrlField = z
  .string()
  .trim()
  .max(500, 'notice_image_own_uploads')
  .regex(NOTICE_IMAGE_URL_RE, 'notice_image_own_uploads')
  .nullable()
  .optional();

/** Locales a notice can be translated into; English is the notice's own `title` and `body`. */
export const NOTICE_TRANSLATION_LOCALES = LOCALES.filter((l) => l !== 'en_US') as Exclude<Locale, 'en_US'>[];
export type NoticeTexts = Partial<Record<Locale, string>>;

/** A reader's text: their language's translation when the operator wrote one, else the English text. */
export function noticeTextIn(english: string, texts: NoticeTexts | null | undefined, locale: Locale): string {
  const own = texts?.[locale];
  return own?.trim() ? own : english;
}

/** Per-locale texts keyed by locale (`hi_IN`, ...); a blank text means "not translated" (English shows). */
const noticeTextsField = (max: number) =>
  z.partialRecord(
    z.enum(LOCALES, { error: 'validation_failed' }),
    z.string({ error: 'validation_failed' }).trim().max(max, 'validation_failed'),
    { error: 'validation_failed' },
  );

const noticeFields = {
  title: z
    .string({ error: 'enter_notice_title' })
    .trim()
    .min(1, 'enter_notice_title')
    .max(NOTICE_TITLE_MAX, 'validation_failed'),
  body: z
    .string({ error: 'enter_notice_body' })
    .trim()
    .min(1, 'enter_notice_body')
    .max(NOTICE_BODY_MAX, 'validation_failed'),
  /** Translations of `title` by locale; `en_US` here is ignored (`title` is the English text). */
  titles: noticeTextsField(NOTICE_TITLE_MAX).optional(),
  /** Translations of `body` by locale. */
  bodies: noticeTextsField(NOTICE_BODY_MAX).optional(),
  imageUrl: imageUrlField,
  pinned: z.boolean({ error: 'validation_failed' }),
  /** False: a draft nobody but operators sees. A new notice is published unless the operator says draft. */
  published: z.boolean({ error: 'validation_failed' }),
  /** When users first see it (a future time schedules it); defaults to the moment it is published. */
  publishedAt: isoTimeField,
};
export const noticeAddBody = z.object({
  ...noticeFields,
  pinned: noticeFields.pinned.default(false),
  published: noticeFields.published.default(true),
});
/** Fields left out stay as they are. */
export const noticeEditBody = z.object({ id: idField, ...noticeFields }).partial({
  title: true,
  body: true,
  pinned: true,
  published: true,
});
export const noticeIdBody = z.object({ id: idField });
export const noticeIdQuery = z.object({ id: idField });
export const NOTICE_STATES = ['draft', 'scheduled', 'published'] as const;
export const adminNoticeListQuery = pageQuery.extend({
  state: z.enum(NOTICE_STATES, { error: 'validation_failed' }).optional(),
});

export const adminNotice = z.object({
  id: z.number().int(),
  /** English: what readers of a language without a translation see. */
  title: z.string(),
  body: z.string(),
  /** Translations by locale (never `en_US`); a locale missing here shows the English text. */
  titles: z.partialRecord(z.enum(LOCALES), z.string()),
  bodies: z.partialRecord(z.enum(LOCALES), z.string()),
  imageUrl: z.string().nullable(),
  pinned: z.boolean(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  /** Draft, scheduled (published with a future time) or published (users see it). */
  state: z.enum(NOTICE_STATES),
  /** How many users have opened it. */
  readCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminNotice = z.infer<typeof adminNotice>;

export const noticeRoutes = {
  noticeList: {
    ...endpoints.noticeList,
    policy: 'user',
    summary:
      "Published notices and the caller's own notifications in one list: pinned notices first, then newest; " +
      'with read state (keyset pages)',
    tag: 'notices',
    query: noticeListQuery,
    data: pageOf(inboxItem),
  },
  noticeDetail: {
    ...endpoints.noticeDetail,
    policy: 'user',
    summary:
      "One published notice or one of the caller's notifications (`kind`, default notice); opening it marks it read",
    tag: 'notices',
    query: noticeDetailQuery,
    data: inboxItem,
  },
  noticeUnread: {
    ...endpoints.noticeUnread,
    policy: 'user',
    summary: "How many of the caller's notices and notifications are unread (the Profile entry's badge)",
    tag: 'notices',
    data: unreadData,
  },
  noticeSeen: {
    ...endpoints.noticeSeen,
    policy: 'user',
    summary:
      "Marks read what the inbox list showed: published notices and the caller's own notifications by id " +
      '(others are ignored); answers with the unread counts after',
    tag: 'notices',
    body: noticeSeenBody,
    data: unreadData,
  },
  adminNoticeAdd: {
    ...endpoints.adminNoticeAdd,
    policy: 'admin',
    summary: 'Creates a notice, published at once unless `published: false` makes it a draft; answers with its id',
    tag: 'notices',
    body: refuseBidi(noticeAddBody),
    data: z.object({ id: z.number().int() }),
  },
  adminNoticeEdit: {
    ...endpoints.adminNoticeEdit,
    policy: 'admin',
    summary: 'Changes a notice; fields left out stay as they are',
    tag: 'notices',
    body: refuseBidi(noticeEditBody),
    data: adminNotice,
  },
  adminNoticeDelete: {
    ...endpoints.adminNoticeDelete,
    policy: 'admin',
    summary: 'Deletes a notice and its read marks',
    tag: 'notices',
    body: noticeIdBody,
    data: z.null(),
  },
  adminNoticeDetail: {
    ...endpoints.adminNoticeDetail,
    policy: 'admin',
    summary: 'One notice, draft or published',
    tag: 'notices',
    query: noticeIdQuery,
    data: adminNotice,
  },
  adminNoticeList: {
    ...endpoints.adminNoticeList,
    policy: 'admin',
    summary: 'Every notice, newest first, filterable by state (keyset pages)',
    tag: 'notices',
    query: adminNoticeListQuery,
    data: pageOf(adminNotice),
  },
} as const satisfies Record<string, RouteDef>;
