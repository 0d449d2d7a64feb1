import { z } from 'zod';
import { timeBound } from './admin';
import { endpoints } from './endpoints';
import { pageOf, pageQuery } from './pagination';
import { type RouteDef, STAFF } from './route-def';

export const auditListQuery = pageQuery.extend({
  actorId: z.coerce.number({ error: 'validation_failed' }).int('validation_failed').positive().optional(),
  /** Exact action, e.g. `user.freeze`, `task.edit`, `revenue.add`. */
  action: z.string().trim().min(1).max(64, 'validation_failed').optional(),
  /** Exact target, e.g. `user:42`, `task:101`, `setting:rebate`. */
  target: z.string().trim().min(1).max(128, 'validation_failed').optional(),
  from: timeBound('from').optional(),
  to: timeBound('to').optional(),
});
export type AuditListQuery = z.input<typeof auditListQuery>;

export const auditItem = z.object({
  id: z.number().int(),
  actorId: z.number().int(),
  actorUsername: z.string(),
  action: z.string(),
  target: z.string(),
  /** The target as it was and as it became (plain JSON; money as rupee strings; never a password). */
  before: z.unknown(),
  after: z.unknown(),
  /** The server's id of the request that did it (the `x-request-id` answered). */
  requestId: z.string().nullable(),
  /** The `x-request-id` the client sent, if any: its own, not trusted to be unique. */
  clientRequestId: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditItem = z.infer<typeof auditItem>;

export const auditRoutes = {
  adminAuditList: {
    ...endpoints.adminAuditList,
    policy: 'admin',
    roles: STAFF,
    summary: 'The audit log of admin actions, newest first (keyset pages), filterable; append-only',
    tag: 'audit',
    query: auditListQuery,
    data: pageOf(auditItem),
  },
} as const satisfies Record<string, RouteDef>;
