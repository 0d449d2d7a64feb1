import { canTransition, PUSH_PATHS, type WithdrawalState } from '@kamai/contract';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { callerOf, inTransaction, localeOf, ok, Refusal, refuse, requireStaff, rupees } from './writes-http';

/** The gateway an approval fixes (PAYOUT_GATEWAY, sandbox by default, as the benchmark's Kamai runs). */
const GATEWAY = process.env.PAYOUT_GATEWAY ?? 'sandbox';

const LOCK = {
  name: 'minimal_review_lock',
  text: `select id, user_id, state, amount::text, fee::text, reason, reference, approvals_required, first_approver_id
    from withdrawals where id = $1 for update`,
};
/** Four-eyes: the first of two approvals, recorded with its audit row. */
const FIRST = {
  name: 'minimal_review_first',
  text: `with audited as (
      insert into audit_log (actor_id, action, target, before, after, request_id, client_request_id)
      values ($2, 'withdrawal.approve_first', 'withdrawal:' || $1, jsonb_build_object('state', $3::text, 'approvals', 0),
        jsonb_build_object('state', $3::text, 'approvals', 1, 'reason', $4::text), $5, $6)
    )
    update withdrawals set first_approver_id = $2, first_approved_at = $7 where id = $1
    returning id, state, amount::text, fee::text, updated_at`,
};
/**
 * The approval: the row, its history, the user's notification and its pushes, the payout job and the
 * audit row, one statement, answering the row with its owner's username and whole history.
 */
const APPROVE = {
  name: 'minimal_review_approve',
  text: `with recorded as (
      insert into withdrawal_history (withdrawal_id, from_state, to_state, reason, actor_id, created_at)
      values ($1, $3, 'approved', $4, $2, $7) returning id, from_state, to_state, reason, actor_id, created_at
    ), notified as (
      insert into notifications (user_id, kind, params, dedupe_key)
      values ($8, 'withdrawal_approved', $9::jsonb, 'withdrawal:' || $1 || ':approved')
      on conflict (dedupe_key) do nothing returning id
    ), pushed as (
      insert into jobs (kind, dedupe_key, payload, run_at)
      select 'push.deliver', 'push:withdrawal:' || $1 || ':approved:' || s.id,
        $10::jsonb || jsonb_build_object('subscriptionId', s.id), now()
      from push_subscriptions s where s.user_id = $8 and exists (select 1 from notified)
      on conflict (dedupe_key) do nothing
    ), payout_job as (
      insert into jobs (kind, dedupe_key, payload, run_at)
      values ('payout.dispatch', 'payout:dispatch:' || $1, jsonb_build_object('withdrawalId', $1::bigint), $7)
      on conflict (dedupe_key) do nothing
    ), audited as (
      insert into audit_log (actor_id, action, target, before, after, request_id, client_request_id)
      values ($2, 'withdrawal.approve', 'withdrawal:' || $1, $11::jsonb,
        jsonb_build_object('state', 'approved', 'reason', $4::text), $5, $6)
    )
    update withdrawals w set state = 'approved', updated_at = $7, reviewer_id = $2, reviewed_at = $7, gateway = $12
    where w.id = $1
    returning w.id, w.state, w.amount::text, w.fee::text, w.updated_at,
      (select u.username from users u where u.id = w.user_id) as username,
      (select json_agg(h order by h.id) from (
        select id, from_state, to_state, reason, actor_id, created_at from withdrawal_history where withdrawal_id = w.id
        union all select * from recorded) h) as history`,
};

function answer(row: Record<string, unknown>) {
  return {
    id: Number(row.id),
    state: row.state,
    amount: rupees(BigInt(row.amount as string)),
    fee: rupees(BigInt(row.fee as string)),
    username: row.username ?? null,
    history: row.history ?? [],
    updatedAt: (row.updated_at as Date).toISOString(),
  };
}

/** POST admin/withdraw/review, approval: Kamai's checks in its order, and its rows. */
export function withdrawReview(app: FastifyInstance, pool: pg.Pool) {
  app.post('/go_user/api/v1/admin/withdraw/review', async (request, reply) => {
    const locale = localeOf(request);
    try {
      const caller = await callerOf(pool, request);
      requireStaff(caller);
      const body = (request.body ?? {}) as { id?: unknown; action?: unknown; reason?: unknown };
      const id = Number(body.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw new Refusal('withdrawal_not_found');
      if (body.action !== 'approve') throw new Refusal('validation_failed');
      const reason = typeof body.reason === 'string' ? body.reason.trim() : '';
      const clientRequestId = request.headers['x-request-id'];
      const ids = [request.id, typeof clientRequestId === 'string' ? clientRequestId : null];
      const at = new Date();
      const data = await inTransaction(pool, async (client) => {
        const current = (await client.query({ ...LOCK, values: [id] })).rows[0];
        if (!current) throw new Refusal('withdrawal_not_found');
        if (Number(current.user_id) === caller.id) throw new Refusal('cannot_review_own_withdrawal');
        const first = current.first_approver_id === null ? null : Number(current.first_approver_id);
        if (current.approvals_required > 1) {
          if (current.state !== 'pending') throw new Refusal('withdrawal_state_conflict');
          if (first === caller.id) throw new Refusal('second_approver_required');
          if (first === null) {
            const { rows } = await client.query({
              ...FIRST,
              values: [id, caller.id, current.state, reason || null, ...ids, at],
            });
            return answer(rows[0]);
          }
        }
        if (!canTransition(current.state as WithdrawalState, 'approved')) {
          throw new Refusal('withdrawal_state_conflict', { state: current.state });
        }
        const amount = BigInt(current.amount);
        const fee = BigInt(current.fee);
        const params = {
          withdrawalId: id,
          amount: rupees(amount),
          fee: rupees(fee),
          net: rupees(amount - fee),
          reason: current.reason,
          reference: current.reference,
        };
        const push = {
          source: 'notification',
          kind: 'withdrawal_approved',
          params,
          url: PUSH_PATHS.withdrawals,
          tag: `withdrawal:${id}`,
        };
        const before = { state: current.state, ...(first ? { firstApproverId: first } : {}) };
        const { rows } = await client.query({
          ...APPROVE,
          values: [
            id,
            caller.id,
            current.state,
            reason || null,
            ...ids,
            at,
            current.user_id,
            JSON.stringify(params),
            JSON.stringify(push),
            JSON.stringify(before),
            GATEWAY,
          ],
        });
        return answer(rows[0]);
      });
      return ok(locale, 'withdrawal_reviewed', data);
    } catch (error) {
      return refuse(reply, locale, error);
    }
  });
}
