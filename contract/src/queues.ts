import { z } from 'zod';
import type { MessageKey } from './catalogue';
import { type EndpointName, endpoints } from './endpoints';
import { type RouteDef, STAFF } from './route-def';

/**
 * The console's lists of work: what waits for an operator on each (docs/decisions/console-queues-refresh.md).
 * Each names the route an operator acts through: a queue is counted for a role only when that role may
 * act on it (a reviewer sees payout mismatches but only an admin resolves them).
 */
export const QUEUES = {
  withdrawals: 'adminWithdrawReview',
  accountChecks: 'adminAccountCheckDecide',
  proofs: 'adminTaskProofReview',
  mismatches: 'adminPayoutMismatchResolve',
  complaints: 'adminComplaintReply',
} as const satisfies Record<string, EndpointName>;
export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/** A queue's waiting items; null when the caller's role may not act on that queue. */
const queueCount = z.number().int().min(0).nullable();
export const adminQueueCountsData = z.object({
  /** Withdrawals in `pending` (awaiting a first or second approval). */
  withdrawals: queueCount,
  /** Payout account numbers queued for an operator's check. */
  accountChecks: queueCount,
  /** Task proofs in `pending`. */
  proofs: queueCount,
  /** Payout mismatches not resolved. */
  mismatches: queueCount,
  /** Complaints not closed (open or acknowledged). */
  complaints: queueCount,
  /** Of those complaints, the ones past a deadline (null with `complaints`). */
  complaintsOverdue: queueCount,
});
export type AdminQueueCounts = z.infer<typeof adminQueueCountsData>;

/**
 * What a refused action found instead (`data.current` of the error envelope): another operator, the
 * user or the gateway decided the item first. `state` is its state now (a catalogue word of its feature:
 * a withdrawal, proof, account check, mismatch or complaint state); `by` the operator who decided it
 * (null: the user, the gateway, the bank's own check); `at` when it left the queue.
 */
export const staleCurrent = z.object({
  state: z.string().max(32),
  by: z.string().max(254).nullable(),
  at: z.string().max(40).nullable(),
});
export type StaleCurrent = z.infer<typeof staleCurrent>;

/** The refusals of a queue action that someone else's decision made stale: they carry `data.current`. */
export const STALE_KEYS = [
  'withdrawal_state_conflict',
  'account_check_decided_already',
  'task_proof_state_conflict',
  'payout_mismatch_resolved_already',
  'complaint_already_closed',
  'complaint_acknowledged_already',
] as const satisfies readonly MessageKey[];
export type StaleKey = (typeof STALE_KEYS)[number];

export const queueRoutes = {
  adminQueueCounts: {
    ...endpoints.adminQueueCounts,
    policy: 'admin',
    roles: STAFF,
    summary:
      'How many items wait on each list of work the caller’s role acts on (withdrawals, account checks, proofs, payout mismatches, complaints); null for the others',
    tag: 'admin',
    data: adminQueueCountsData,
  },
} as const satisfies Record<string, RouteDef>;
