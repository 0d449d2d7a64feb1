import { z } from 'zod';
import { TASK_SECTIONS } from './constants';
import { endpoints } from './endpoints';
import { LOCALES, type Locale } from './locales';
import { rupeeAmountField } from './money';
import { type RouteDef, STAFF } from './route-def';
import { isSaneInstant } from './validation';

/**
 * What completes a task, decided by the server from its own records (DESIGN.md §5). `custom` tasks
 * are made by operators and can be claimed while active and inside their time window.
 */
export const TASK_KINDS = ['register', 'survey', 'intro', 'invite', 'withdrawal', 'custom'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export const TASK_STATES = ['incomplete', 'claimable', 'completed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** Invite 1-4 system tasks (the other system tasks are SYSTEM_TASK_IDS in constants.ts). */
export const INVITE_TASK_IDS = [7, 8, 9, 10] as const;

export const taskItem = z.object({
  id: z.number().int(),
  section: z.enum(TASK_SECTIONS),
  kind: z.enum(TASK_KINDS),
  /** In the request's language (English when the operator gave none). */
  title: z.string(),
  description: z.string(),
  reward: z.string(),
  targetCount: z.number().int(),
  progress: z.number().int(),
  state: z.enum(TASK_STATES),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
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

const isoTime = z.iso
  .datetime({ offset: true, error: 'validation_failed' })
  .refine(isSaneInstant, 'validation_failed')
  .nullable()
  .optional();

const taskFields = {
  section: z.enum(TASK_SECTIONS, { error: 'validation_failed' }),
  reward: rupeeAmountField,
  titles: localeTexts(120),
  descriptions: z.partialRecord(z.enum(LOCALES), z.string().trim().max(500)).optional(),
  targetCount: z.coerce.number().int().min(1).max(1000).optional(),
  startsAt: isoTime,
  endsAt: isoTime,
  sort: z.coerce.number().int().min(-10000).max(10000).optional(),
  active: z.boolean().default(true),
};

export const taskAddBody = z.object(taskFields);
/** Fields left out stay as they are (`active` has no default here, unlike `task/add`). */
export const taskEditBody = z.object({ id: taskId, ...taskFields, active: z.boolean().optional() }).partial({
  section: true,
  reward: true,
  titles: true,
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
  targetCount: z.number().int(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  sort: z.number().int(),
  active: z.boolean(),
  system: z.boolean(),
  /** How many users have been paid this task's reward. */
  completions: z.number().int(),
});
export type AdminTask = z.infer<typeof adminTask>;
export type LocaleTexts = Partial<Record<Locale, string>>;

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
  adminTaskAdd: {
    ...endpoints.adminTaskAdd,
    policy: 'admin',
    summary: 'Creates an operator task',
    tag: 'admin',
    body: taskAddBody,
    data: z.object({ id: z.number().int() }),
  },
  adminTaskEdit: {
    ...endpoints.adminTaskEdit,
    policy: 'admin',
    summary: 'Changes a task (system tasks: reward, texts, section, sort, active)',
    tag: 'admin',
    body: taskEditBody,
    data: adminTask,
  },
  adminTaskDelete: {
    ...endpoints.adminTaskDelete,
    policy: 'admin',
    summary: 'Deletes an operator task; rewards already paid stay paid',
    tag: 'admin',
    body: taskIdBody,
    data: z.null(),
  },
  adminTaskDetail: {
    ...endpoints.adminTaskDetail,
    policy: 'admin',
    roles: STAFF,
    summary: 'One task with every locale text',
    tag: 'admin',
    query: taskIdQuery,
    data: adminTask,
  },
  adminTaskList: {
    ...endpoints.adminTaskList,
    policy: 'admin',
    roles: STAFF,
    summary: 'Every task that is not deleted, by section and sort order',
    tag: 'admin',
    data: z.object({ items: z.array(adminTask) }),
  },
} as const satisfies Record<string, RouteDef>;
