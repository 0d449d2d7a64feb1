import { SYSTEM_TASK_IDS } from '@kamai/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { clientSignals } from '../../db/schema';

export type NewClientSignal = typeof clientSignals.$inferInsert;

export async function insertClientSignal(db: Executor, values: NewClientSignal) {
  await db.insert(clientSignals).values(values);
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface PayoutTarget {
  accountType: string;
  accountNo: string;
  ifsc: string;
}

/**
 * Everything the risk score reads about a user, in one statement (inside `withdraw/add`'s
 * transaction, before the new withdrawal is written). See docs/decisions.md, "fraud".
 */
export async function riskFacts(db: Executor, userId: number, target: PayoutTarget) {
  const register = SYSTEM_TASK_IDS.register;
  const result = await db.execute(sql`
    with me as (select id, inviter_id, created_at from users where id = ${userId}),
    -- Every invite edge that touches the user: its inviter → the user, the user → each invitee.
    edges as (
      select inviter_id as a, id as b from me where inviter_id is not null
      union all
      select ${userId}::bigint, u.id from users u where u.inviter_id = ${userId}
    ),
    edge_matches as (
      select
        bool_or(rb.device_id is not null and rb.device_id = sa.device_id) as device,
        bool_or(rb.address_key = sa.address_key) as address
      from edges e
      join client_signals rb on rb.user_id = e.b and rb.kind = 'register'
      join client_signals sa on sa.user_id = e.a
    ),
    -- Registrations of invitees of one inviter: the user's fellows, and the user's own invitees.
    fellows as (
      select r.user_id, r.device_id, r.address_key, u.inviter_id
      from users u join client_signals r on r.user_id = u.id and r.kind = 'register'
      where u.inviter_id = (select inviter_id from me) or u.inviter_id = ${userId}
    ),
    fellow_matches as (
      select
        bool_or(mine.device_id is not null and mine.device_id = f.device_id) as device,
        bool_or(mine.address_key = f.address_key) as address
      from client_signals mine
      join fellows f on f.inviter_id = (select inviter_id from me) and f.user_id <> mine.user_id
      where mine.user_id = ${userId} and mine.kind = 'register'
    ),
    own_invitee_device as (
      select 1 from fellows where inviter_id = ${userId} and device_id is not null
      group by device_id having count(distinct user_id) > 1
    ),
    own_invitee_address as (
      select 1 from fellows where inviter_id = ${userId}
      group by address_key having count(distinct user_id) > 1
    ),
    income as (
      select
        coalesce(sum(en.amount) filter (where p.type = 'rebate'
          or (p.type = 'task_reward' and t.kind = 'invite')), 0)::text as invite,
        coalesce(sum(en.amount), 0)::text as total
      from accounts ac
      join entries en on en.account_id = ac.id and en.amount > 0
      join postings p on p.id = en.posting_id
      left join tasks t on t.id = (p.ref->>'taskId')::bigint
      where ac.user_id = ${userId} and ac.kind = 'wallet'
        and p.type in ('task_reward', 'rebate', 'revenue', 'linked_income')
    )
    select
      exists (
        select 1 from payout_accounts pa
        where pa.user_id <> ${userId} and pa.account_type = ${target.accountType}
          and pa.account_no = ${target.accountNo} and pa.ifsc = ${target.ifsc}
      ) or exists (
        select 1 from withdrawals w
        where w.user_id <> ${userId} and w.account_type = ${target.accountType}
          and w.account_no = ${target.accountNo} and w.ifsc = ${target.ifsc}
      ) as shared_account,
      coalesce((select device from edge_matches), false) as inviter_device,
      coalesce((select address from edge_matches), false) as inviter_address,
      coalesce((select device from fellow_matches), false) or exists (select 1 from own_invitee_device) as fellow_device,
      coalesce((select address from fellow_matches), false) or exists (select 1 from own_invitee_address) as fellow_address,
      (
        select count(*)::int from users f
        where f.inviter_id = ${userId}
          and not exists (select 1 from task_completions c where c.user_id = f.id and c.task_id <> ${register})
          and not exists (select 1 from payout_accounts x where x.user_id = f.id)
          and not exists (select 1 from withdrawals x where x.user_id = f.id)
          and not exists (select 1 from linked_accounts x where x.user_id = f.id)
          and not exists (select 1 from survey_responses x where x.user_id = f.id)
          and not exists (select 1 from intro_views x where x.user_id = f.id)
      ) as idle_invitees,
      (select invite from income) as invite_income,
      (select total from income) as total_income,
      (select created_at from me) as registered_at,
      exists (select 1 from withdrawals w where w.user_id = ${userId}) as withdrew_before
  `);
  const [row] = rowsOf<{
    shared_account: boolean;
    inviter_device: boolean;
    inviter_address: boolean;
    fellow_device: boolean;
    fellow_address: boolean;
    idle_invitees: number;
    invite_income: string;
    total_income: string;
    registered_at: Date | string;
    withdrew_before: boolean;
  }>(result);
  if (!row) throw new Error(`risk facts of user ${userId}: no row`);
  return {
    sharedAccount: Boolean(row.shared_account),
    inviterDevice: Boolean(row.inviter_device),
    inviterAddress: Boolean(row.inviter_address),
    fellowDevice: Boolean(row.fellow_device),
    fellowAddress: Boolean(row.fellow_address),
    idleInvitees: Number(row.idle_invitees),
    inviteIncome: BigInt(row.invite_income ?? '0'),
    totalIncome: BigInt(row.total_income ?? '0'),
    registeredAt: new Date(row.registered_at),
    withdrewBefore: Boolean(row.withdrew_before),
  };
}
export type RiskFacts = Awaited<ReturnType<typeof riskFacts>>;
