import {
  type AdminTask,
  DEFAULT_LOCALE,
  formatRupees,
  type Locale,
  type LocaleTexts,
  TASK_SECTIONS,
  type TaskItem,
  type TaskSection,
  type TaskState,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import { writeAudit } from '../../platform/audit.queries';
import { AppError, isUniqueViolation } from '../../platform/errors';
import { walletBalance } from '../wallet';
import { completeTask, isAvailable } from './tasks.credit';
import * as q from './tasks.queries';

type Facts = Awaited<ReturnType<typeof q.userFacts>>;

interface Actor {
  id: number;
  requestId: string;
}

export interface TaskInput {
  section?: TaskSection;
  reward?: bigint;
  titles?: LocaleTexts;
  descriptions?: LocaleTexts;
  targetCount?: number;
  startsAt?: string | null;
  endsAt?: string | null;
  sort?: number;
  active?: boolean;
}

function textIn(texts: LocaleTexts, locale: Locale): string {
  return texts[locale] || texts[DEFAULT_LOCALE] || '';
}

/** Drops empty texts so a blank locale falls back to English. */
function cleanTexts(texts: LocaleTexts | undefined): LocaleTexts | undefined {
  if (!texts) return undefined;
  return Object.fromEntries(Object.entries(texts).filter(([, text]) => Boolean(text)));
}

/** How far the user is, by the server's own records. */
function progressOf(task: q.TaskRow, facts: Facts): number {
  switch (task.kind) {
    case 'register':
      return 1;
    case 'survey':
      return facts.survey ? 1 : 0;
    case 'intro':
      return facts.intro ? 1 : 0;
    case 'invite':
      return Math.min(facts.invitees, task.targetCount);
    case 'withdrawal':
      // Any request counts, whatever became of it: the task is to make one.
      return facts.withdrawal ? 1 : 0;
    case 'custom':
      return 0;
  }
}

function conditionMet(task: q.TaskRow, facts: Facts): boolean {
  if (task.kind === 'custom') return true;
  return progressOf(task, facts) >= (task.kind === 'invite' ? task.targetCount : 1);
}

function toAdminTask(task: q.TaskRow, completions: number): AdminTask {
  return {
    id: task.id,
    section: task.section,
    kind: task.kind,
    reward: formatRupees(task.reward),
    titles: task.titles,
    descriptions: task.descriptions,
    targetCount: task.targetCount,
    startsAt: task.startsAt?.toISOString() ?? null,
    endsAt: task.endsAt?.toISOString() ?? null,
    sort: task.sort,
    active: task.active,
    system: task.system,
    completions,
  };
}

const toDate = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

export function createTasksService({ db, now }: { db: Db; now: () => Date }) {
  /**
   * The caller's available tasks in Home's section order, with progress and state; the caller is
   * found by its session's token hash (one query checks both).
   */
  async function list(sessionHash: string, locale: Locale) {
    const found = await q.listTasksBySession(db, sessionHash, now());
    if (!found) throw new AppError('unauthorized');
    const { facts } = found;
    const items = found.tasks.map(({ task, done: completed }): TaskItem & { section: TaskSection } => {
      const state: TaskState = completed ? 'completed' : conditionMet(task, facts) ? 'claimable' : 'incomplete';
      return {
        id: task.id,
        section: task.section,
        kind: task.kind,
        title: textIn(task.titles, locale),
        description: textIn(task.descriptions, locale),
        reward: formatRupees(task.reward),
        targetCount: task.targetCount,
        progress: completed ? task.targetCount : progressOf(task, facts),
        state,
        startsAt: task.startsAt?.toISOString() ?? null,
        endsAt: task.endsAt?.toISOString() ?? null,
      };
    });
    return {
      sections: TASK_SECTIONS.map((section) => ({ section, items: items.filter((i) => i.section === section) })),
    };
  }

  /** Claims a task's reward once, when the server's records satisfy it. */
  async function finish(userId: number, taskId: number) {
    return db
      .transaction(async (tx) => {
        const task = await q.findTask(tx, taskId);
        if (!task || task.deletedAt) throw new AppError('task_not_found');
        if (await q.hasCompletion(tx, userId, taskId)) throw new AppError('task_already_claimed');
        if (!isAvailable(task, now())) throw new AppError('task_not_active');
        if (!conditionMet(task, await q.userFacts(tx, userId))) throw new AppError('task_condition_unmet');
        const reward = await completeTask(tx, userId, task);
        return { taskId, reward: formatRupees(reward), balance: formatRupees(await walletBalance(tx, userId)) };
      })
      .catch((error: unknown) => {
        // A concurrent claim that got past the checks meets the completion's primary key.
        if (isUniqueViolation(error)) throw new AppError('task_already_claimed');
        throw error;
      });
  }

  function checkWindow(startsAt: Date | null | undefined, endsAt: Date | null | undefined) {
    if (startsAt && endsAt && endsAt <= startsAt) {
      throw new AppError('validation_failed', { fields: { endsAt: 'validation_failed' } });
    }
  }

  async function adminAdd(
    actor: Actor,
    input: TaskInput & { section: TaskSection; reward: bigint; titles: LocaleTexts },
  ) {
    const startsAt = toDate(input.startsAt) ?? null;
    const endsAt = toDate(input.endsAt) ?? null;
    checkWindow(startsAt, endsAt);
    return db.transaction(async (tx) => {
      const task = await q.insertTask(tx, {
        section: input.section,
        kind: 'custom',
        titles: cleanTexts(input.titles) ?? {},
        descriptions: cleanTexts(input.descriptions) ?? {},
        reward: input.reward,
        targetCount: input.targetCount ?? 1,
        startsAt,
        endsAt,
        sort: input.sort ?? 0,
        active: input.active ?? true,
      });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.add',
        target: `task:${task.id}`,
        after: toAdminTask(task, 0),
        requestId: actor.requestId,
      });
      return { id: task.id };
    });
  }

  async function adminEdit(actor: Actor, input: TaskInput & { id: number }) {
    return db.transaction(async (tx) => {
      const task = await q.lockTask(tx, input.id);
      if (!task || task.deletedAt) throw new AppError('task_not_found');
      if (task.system && input.targetCount !== undefined && input.targetCount !== task.targetCount) {
        throw new AppError('system_task_locked', { fields: { targetCount: 'system_task_locked' } });
      }
      const startsAt = toDate(input.startsAt);
      const endsAt = toDate(input.endsAt);
      checkWindow(startsAt === undefined ? task.startsAt : startsAt, endsAt === undefined ? task.endsAt : endsAt);
      const changes: Partial<q.NewTask> = {
        section: input.section,
        reward: input.reward,
        titles: cleanTexts(input.titles),
        descriptions: cleanTexts(input.descriptions),
        targetCount: input.targetCount,
        startsAt,
        endsAt,
        sort: input.sort,
        active: input.active,
      };
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const updated = Object.keys(defined).length > 0 ? await q.updateTask(tx, task.id, defined) : task;
      if (!updated) throw new AppError('task_not_found');
      const [row] = await q.listTasksWithCompletions(tx, task.id);
      const completions = row?.completions ?? 0;
      const after = toAdminTask(updated, completions);
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.edit',
        target: `task:${task.id}`,
        before: toAdminTask(task, completions),
        after,
        requestId: actor.requestId,
      });
      return after;
    });
  }

  /** Soft delete: the task leaves every list; its completions and postings stay. */
  async function adminDelete(actor: Actor, id: number) {
    return db.transaction(async (tx) => {
      const task = await q.lockTask(tx, id);
      if (!task || task.deletedAt) throw new AppError('task_not_found');
      if (task.system) throw new AppError('system_task_locked');
      const [row] = await q.listTasksWithCompletions(tx, id);
      await q.updateTask(tx, id, { deletedAt: now() });
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.delete',
        target: `task:${id}`,
        before: toAdminTask(task, row?.completions ?? 0),
        requestId: actor.requestId,
      });
      return null;
    });
  }

  async function adminDetail(id: number) {
    const [row] = await q.listTasksWithCompletions(db, id);
    if (!row) throw new AppError('task_not_found');
    return toAdminTask(row.task, row.completions);
  }

  async function adminList() {
    const rows = await q.listTasksWithCompletions(db);
    const order = (s: TaskSection) => TASK_SECTIONS.indexOf(s);
    const items = rows.map((r) => toAdminTask(r.task, r.completions));
    return { items: items.sort((a, b) => order(a.section) - order(b.section) || a.sort - b.sort || a.id - b.id) };
  }

  return { list, finish, adminAdd, adminEdit, adminDelete, adminDetail, adminList };
}

export type TasksService = ReturnType<typeof createTasksService>;
