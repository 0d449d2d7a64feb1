import { z } from 'zod';
import { TASK_SECTIONS } from './constants';
import { endpoints } from './endpoints';
import { LOCALES, type Locale } from './locales';
import { formatRupees, rupeeAmountField } from './money';
import { pageOf, pageQuery } from './pagination';
import { rejectPresetField } from './reject-reasons';
import { type RouteDef, STAFF } from './route-def';
import { UPLOAD_FIELD, uploadData } from './uploads';
import { isoTimeField, refuseBidi } from './validation';
import { idempotencyKeyHeaders } from './withdrawals';

/**
 * Which task it is: the system tasks' kinds, and `custom` for operators' tasks. What completes a task
 * is its verification (below), never a click.
 */
export const TASK_KINDS = ['register', 'survey', 'intro', 'invite', 'withdrawal', 'custom'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
/** `review`: a proof task whose proof waits for an operator. */
export const TASK_STATES = ['incomplete', 'claimable', 'review', 'completed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/**
 * How a task is verified (docs/decisions/task-verification.md): `automatic`, a condition the server checks from its own
 * records,
 * or `proof`, a screenshot or link an operator approves. No kind pays on a click.
 */
export const TASK_VERIFICATION_KINDS = ['automatic', 'proof'] as const;
export type TaskVerificationKind = (typeof TASK_VERIFICATION_KINDS)[number];
/** What a proof task asks for. */
export const TASK_PROOF_TYPES = ['screenshot', 'link', 'either'] as const;
export type TaskProofType = (typeof TASK_PROOF_TYPES)[number];
/** The conditions an operator may choose for an automatic task (`register` belongs to system task 2 only). */
export const TASK_CONDITION_TYPES = ['linked_accounts', 'invites', 'withdrawals', 'survey', 'intro', 'income'] as const;
export type TaskConditionType = (typeof TASK_CONDITION_TYPES)[number];
export const TASK_CONDITION_COUNT_MAX = 1000;
export const TASK_INCOME_DAYS_MAX = 365;

const conditionCount = z.coerce
  .number({ error: 'validation_failed' })
  .int('validation_failed')
  .min(1, 'validation_failed')
  .max(TASK_CONDITION_COUNT_MAX, 'validation_failed');

/** A condition the server checks from its own records; stored as JSON with the task. */
export const taskCondition = z.discriminatedUnion(
  'type',
  [
    /** At least `count` messaging numbers linked; with `online`, that many online now. */
    z.object({ type: z.literal('linked_accounts'), count: conditionCount, online: z.boolean().default(false) }),
    /** At least `count` friends invited; with `qualified`, friends who linked at least one number. */
    z.object({ type: z.literal('invites'), count: conditionCount, qualified: z.boolean().default(false) }),
    /** At least `count` withdrawals requested; with `paid`, that many paid out. */
    z.object({ type: z.literal('withdrawals'), count: conditionCount, paid: z.boolean().default(false) }),
    z.object({ type: z.literal('survey') }),
    z.object({ type: z.literal('intro') }),
    /** At least `amount` rupees earned (task rewards, rebates, online income, credits) in the last `days` days. */
    z.object({
      type: z.literal('income'),
      amount: rupeeAmountField.transform((paise) => formatRupees(paise)),
      days: z.coerce
        .number({ error: 'validation_failed' })
        .int('validation_failed')
        .min(1, 'validation_failed')
        .max(TASK_INCOME_DAYS_MAX, 'validation_failed'),
    }),
  ],
  { error: 'task_condition_required' },
);
export type TaskCondition = z.output<typeof taskCondition>;
/** Conditions as stored and shown: the operator's, and system task 2's `register`. */
export type StoredTaskCondition = TaskCondition | { type: 'register' };

export const taskVerification = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('automatic'), condition: taskCondition }),
    z.object({ kind: z.literal('proof'), proof: z.enum(TASK_PROOF_TYPES, { error: 'validation_failed' }) }),
  ],
  { error: 'task_verification_required' },
);
export type TaskVerification = z.output<typeof taskVerification>;
export type StoredTaskVerification =
  | { kind: 'automatic'; condition: StoredTaskCondition }
  | { kind: 'proof'; proof: TaskProofType };

/** What the API shows of a stored verification (a loose schema: the stored value is already checked). */
export const taskVerificationView = z.object({
  kind: z.enum(TASK_VERIFICATION_KINDS),
  proof: z.enum(TASK_PROOF_TYPES).optional(),
  condition: z
    .object({
      type: z.enum([...TASK_CONDITION_TYPES, 'register']),
      count: z.number().int().optional(),
      online: z.boolean().optional(),
      qualified: z.boolean().optional(),
      paid: z.boolean().optional(),
      amount: z.string().optional(),
      days: z.number().int().optional(),
    })
    .optional(),
});

export const TASK_PROOF_STATES = ['pending', 'approved', 'rejected'] as const;
export type TaskProofState = (typeof TASK_PROOF_STATES)[number];
export const TASK_PROOF_LINK_MAX = 500;
export const TASK_PROOF_REASON_MAX = 200;
/** Screenshots one user may upload for proof tasks in an hour (each is stored for good). */
export const TASK_PROOF_UPLOADS_PER_HOUR = 20;

/** The caller's latest proof of a task. */
export const taskProofView = z.object({
  id: z.number().int(),
  state: z.enum(TASK_PROOF_STATES),
  imageUrl: z.string().nullable(),
  link: z.string().nullable(),
  /** The operator's reason for a rejection. */
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type TaskProofView = z.infer<typeof taskProofView>;

export const taskItem = z.object({
  id: z.number().int(),
  section: z.enum(TASK_SECTIONS),
  kind: z.enum(TASK_KINDS),
  /** In the request's language (English when the operator gave none). */
  title: z.string(),
  description: z.string(),
  /** Where the task is done, in the request's language (English when the operator gave none); null when none. */
  link: z.string().nullable(),
  reward: z.string(),
  targetCount: z.number().int(),
  progress: z.number().int(),
  state: z.enum(TASK_STATES),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  verification: taskVerificationView,
  /** Proof tasks: the caller's latest proof, if any. */
  proof: taskProofView.nullable(),
});
export type TaskItem = z.infer<typeof taskItem>;

export const taskListData = z.object({
  sections: z.array(z.object({ section: z.enum(TASK_SECTIONS), items: z.array(taskItem) })),
});

const taskId = z.coerce.number({ error: 'task_not_found' }).int('task_not_found').positive('task_not_found');
export const taskFinishBody = z.object({ taskId });
export const taskFinishData = z.object({ taskId: z.number().int(), reward: z.string(), balance: z.string() });

const localeTexts = (max: number) =>
  z
    .partialRecord(z.enum(LOCALES), z.string().trim().max(max, 'validation_failed'))
    .refine((texts) => Boolean(texts.en_US), { message: 'task_title_required', path: ['en_US'] });

export const TASK_LINK_MAX = 500;
export const TASK_DESCRIPTION_MAX = 500;
/** One of a task's links: an http(s) address; blank means "use English". */
export const taskLinkField = z
  .string()
  .trim()
  .max(TASK_LINK_MAX, 'task_proof_link_invalid')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(v), 'task_proof_link_invalid');
const localeLinks = z.partialRecord(z.enum(LOCALES), taskLinkField);

const taskFields = {
  section: z.enum(TASK_SECTIONS, { error: 'validation_failed' }),
  reward: rupeeAmountField,
  titles: localeTexts(120),
  descriptions: z.partialRecord(z.enum(LOCALES), z.string().trim().max(TASK_DESCRIPTION_MAX)).optional(),
  links: localeLinks.optional(),
  targetCount: z.coerce.number().int().min(1).max(1000).optional(),
  startsAt: isoTimeField,
  endsAt: isoTimeField,
  sort: z.coerce.number().int().min(-10000).max(10000).optional(),
  active: z.boolean().default(true),
  verification: taskVerification,
};

/** An operator task must say how it is verified; a count condition sets the target count. */
export const taskAddBody = z.object(taskFields);
/** Fields left out stay as they are (`active` has no default here, unlike `task/add`). */
export const taskEditBody = z.object({ id: taskId, ...taskFields, active: z.boolean().optional() }).partial({
  section: true,
  reward: true,
  titles: true,
  verification: true,
});
export const taskIdBody = z.object({ id: taskId });
export const taskIdQuery = z.object({ id: taskId });

export const adminTask = z.object({
  id: z.number().int(),
  section: z.enum(TASK_SECTIONS),
  kind: z.enum(TASK_KINDS),
  reward: z.string(),
  titles: z.partialRecord(z.enum(LOCALES), z.string()),
  descriptions: z.partialRecord(z.enum(LOCALES), z.string()),
  links: z.partialRecord(z.enum(LOCALES), z.string()),
  targetCount: z.number().int(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  sort: z.number().int(),
  active: z.boolean(),
  system: z.boolean(),
  verification: taskVerificationView,
  /** How many users have been paid this task's reward. */
  completions: z.number().int(),
  /** Proofs waiting for review. */
  pendingProofs: z.number().int(),
});
export type AdminTask = z.infer<typeof adminTask>;
export type LocaleTexts = Partial<Record<Locale, string>>;

/** Proof of a proof task: an uploaded screenshot (`user/task/proof/upload`), a link, or both. */
export const taskProofSubmitBody = z
  .object({
    taskId,
    imageUrl: z
      .string()
      .trim()
      .max(160, 'task_proof_image_invalid')
      // As the upload answered it: signed (`?exp=…&sig=…`), or bare.
      .regex(
        /^\/uploads\/[0-9a-f]{64}\.(png|jpg|webp)(\?exp=\d{1,12}&sig=[A-Za-z0-9_-]{43})?$/,
        'task_proof_image_invalid',
      )
      .nullish(),
    link: z
      .string()
      .trim()
      .max(TASK_PROOF_LINK_MAX, 'task_proof_link_invalid')
      .refine((v) => v === '' || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(v), 'task_proof_link_invalid')
      .nullish(),
  })
  .refine((b) => Boolean(b.imageUrl) || Boolean(b.link), { message: 'task_proof_missing', path: ['imageUrl'] });
export type TaskProofSubmitBody = z.input<typeof taskProofSubmitBody>;

export const adminTaskProofItem = taskProofView.extend({
  taskId: z.number().int(),
  taskTitle: z.string(),
  reward: z.string(),
  userId: z.number().int(),
  username: z.string(),
  reviewerId: z.number().int().nullable(),
  reviewedAt: z.string().nullable(),
});
export type AdminTaskProofItem = z.infer<typeof adminTaskProofItem>;

export const adminTaskProofQuery = pageQuery.extend({
  state: z.enum(TASK_PROOF_STATES, { error: 'validation_failed' }).optional(),
  taskId: z.coerce.number({ error: 'validation_failed' }).int().positive().optional(),
});

export const TASK_PROOF_REVIEW_ACTIONS = ['approve', 'reject'] as const;
/** `postingId`: the task reward's posting (the completion's `postingId`). */
export const taskRewardReverseBody = z.object({
  postingId: z.coerce.number({ error: 'validation_failed' }).int().positive(),
  reason: z
    .string({ error: 'enter_resolve_reason' })
    .trim()
    .min(1, 'enter_resolve_reason')
    .max(200, 'validation_failed'),
});

export const adminTaskProofReviewBody = z
  .object({
    id: z.coerce.number({ error: 'task_proof_not_found' }).int('task_proof_not_found').positive('task_proof_not_found'),
    action: z.enum(TASK_PROOF_REVIEW_ACTIONS, { error: 'validation_failed' }),
    /** A rejection's reason from the translated list (`TASK_PROOF_REJECT_PRESETS`). */
    preset: rejectPresetField.optional(),
    /** Optional note beside the preset; a rejection needs a preset or a note (shown to the user). */
    reason: z
      .string({ error: 'enter_reject_reason' })
      .trim()
      .max(TASK_PROOF_REASON_MAX, 'validation_failed')
      .default(''),
  })
  .refine((b) => b.action !== 'reject' || b.reason !== '' || b.preset !== undefined, {
    message: 'enter_reject_reason',
    path: ['reason'],
  });

export const taskRoutes = {
  taskList: {
    ...endpoints.taskList,
    policy: 'user',
    summary: "The caller's tasks by section, with reward, progress and state",
    tag: 'tasks',
    data: taskListData,
  },
  taskFinish: {
    ...endpoints.taskFinish,
    policy: 'user',
    summary: "Claims a task's reward once, when the server's records satisfy it",
    tag: 'tasks',
    body: taskFinishBody,
    data: taskFinishData,
    ok: 'task_reward_credited',
  },
  taskProofUpload: {
    ...endpoints.taskProofUpload,
    policy: 'user',
    summary:
      'Uploads a screenshot for a proof task (multipart/form-data, field `file`): PNG, JPEG or WebP up to 5 MB, checked by its bytes',
    tag: 'uploads',
    multipart: { field: UPLOAD_FIELD },
    data: uploadData,
  },
  taskProofSubmit: {
    ...endpoints.taskProofSubmit,
    policy: 'user',
    summary: 'Submits (or, after a rejection, resubmits) proof for a proof task; it then waits for review',
    tag: 'tasks',
    body: refuseBidi(taskProofSubmitBody),
    data: taskProofView,
    ok: 'task_proof_submitted',
  },
  adminTaskProofList: {
    ...endpoints.adminTaskProofList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Submitted proofs by state and task; pending ones oldest first, the rest newest first',
    tag: 'tasks',
    query: adminTaskProofQuery,
    data: pageOf(adminTaskProofItem),
  },
  adminTaskProofReview: {
    ...endpoints.adminTaskProofReview,
    policy: 'admin',
    roles: STAFF,
    summary: "Approves a pending proof (credits the task's reward once) or rejects it with a reason; audited",
    tag: 'tasks',
    headers: idempotencyKeyHeaders,
    body: refuseBidi(adminTaskProofReviewBody),
    data: adminTaskProofItem,
    ok: 'task_proof_reviewed',
  },
  adminTaskRewardReverse: {
    ...endpoints.adminTaskRewardReverse,
    policy: 'admin',
    summary:
      "Takes a task reward back from the user's wallet (the completion stays: it is not paid again) and reverses its pending rebates, both levels; audited",
    tag: 'tasks',
    body: taskRewardReverseBody,
    data: z.object({ postingId: z.number().int(), rebatesReversed: z.number().int() }),
    ok: 'task_reward_reversed',
  },
  adminTaskAdd: {
    ...endpoints.adminTaskAdd,
    policy: 'admin',
    summary: 'Creates an operator task',
    tag: 'tasks',
    body: refuseBidi(taskAddBody),
    data: z.object({ id: z.number().int() }),
  },
  adminTaskEdit: {
    ...endpoints.adminTaskEdit,
    policy: 'admin',
    summary: 'Changes a task (system tasks: reward, texts, section, sort, active)',
    tag: 'tasks',
    body: refuseBidi(taskEditBody),
    data: adminTask,
  },
  adminTaskDelete: {
    ...endpoints.adminTaskDelete,
    policy: 'admin',
    summary: 'Deletes an operator task; rewards already paid stay paid',
    tag: 'tasks',
    body: taskIdBody,
    data: z.null(),
  },
  adminTaskDetail: {
    ...endpoints.adminTaskDetail,
    policy: 'admin',
    roles: STAFF,
    summary: 'One task with every locale text',
    tag: 'tasks',
    query: taskIdQuery,
    data: adminTask,
  },
  adminTaskList: {
    ...endpoints.adminTaskList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Every task that is not deleted, by section and sort order',
    tag: 'tasks',
    data: z.object({ items: z.array(adminTask) }),
  },
} as const satisfies Record<string, RouteDef>;
