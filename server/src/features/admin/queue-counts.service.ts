import {
  type AdminQueueCounts,
  QUEUE_NAMES,
  QUEUES,
  type Role,
  rolesOf,
  routes,
  type StaffRole,
} from '@kamai/contract';
import type { Db } from '../../db/client';
import type { ComplaintFigures } from './dashboard.service';
import * as q from './queue-counts.queries';

/** Whether `role` acts on the queue: the roles of the route its operators act through. */
const actsOn = (role: Role, queue: keyof typeof QUEUES) => rolesOf(routes[QUEUES[queue]]).includes(role as StaffRole);

/**
 * The console's pending counts (menu badges, tab title; docs/decisions/console-queues-refresh.md): two
 * statements, whatever the role; a queue the role may not act on answers null, so a reviewer's menu
 * never counts work only an admin can do.
 */
export function createQueueCountsService({ db, complaintFigures }: { db: Db; complaintFigures: ComplaintFigures }) {
  async function counts(role: Role): Promise<AdminQueueCounts> {
    const waiting = await q.waitingCounts(db);
    const complaints = actsOn(role, 'complaints') ? await complaintFigures(db) : null;
    const figures = { ...waiting, complaints: complaints?.open ?? 0 };
    const answer = Object.fromEntries(
      QUEUE_NAMES.map((queue) => [queue, actsOn(role, queue) ? figures[queue] : null]),
    ) as Omit<AdminQueueCounts, 'complaintsOverdue'>;
    return { ...answer, complaintsOverdue: complaints?.overdue ?? null };
  }
  return { counts };
}

export type QueueCountsService = ReturnType<typeof createQueueCountsService>;
