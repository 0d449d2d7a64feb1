-- Everything the risk score reads about a user (docs/decisions/fraud-signals.md), in one statement, before
-- the new withdrawal is written (so "withdrew before" means an earlier one). PL/pgSQL rather than SQL,
-- here and in withdrawal_risk: a SQL function's statement is planned again on every call, PL/pgSQL
-- keeps its plan for the connection (this one's planning was half of withdraw/add's database time).
CREATE OR REPLACE FUNCTION withdrawal_risk_facts(
  p_user bigint, p_account_type text, p_account_no text, p_ifsc text, p_register_task bigint
) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    with me as (select id, inviter_id, created_at from users where id = p_user),
    -- Every invite edge that touches the user: its inviter → the user, the user → each invitee.
    edges as (
      select inviter_id as a, id as b from me where inviter_id is not null
      union all
      select p_user, u.id from users u where u.inviter_id = p_user
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
      where u.inviter_id = (select inviter_id from me) or u.inviter_id = p_user
    ),
    fellow_matches as (
      select
        bool_or(mine.device_id is not null and mine.device_id = f.device_id) as device,
        bool_or(mine.address_key = f.address_key) as address
      from client_signals mine
      join fellows f on f.inviter_id = (select inviter_id from me) and f.user_id <> mine.user_id
      where mine.user_id = p_user and mine.kind = 'register'
    ),
    own_invitee_device as (
      select 1 from fellows where inviter_id = p_user and device_id is not null
      group by device_id having count(distinct user_id) > 1
    ),
    own_invitee_address as (
      select 1 from fellows where inviter_id = p_user
      group by address_key having count(distinct user_id) > 1
    ),
    income as (
      select
        coalesce(sum(en.amount) filter (where p.type = 'rebate'
          or (p.type = 'task_reward' and t.kind = 'invite')), 0) as invite,
        coalesce(sum(en.amount), 0) as total
      from accounts ac
      join entries en on en.account_id = ac.id and en.amount > 0
      join postings p on p.id = en.posting_id
      left join tasks t on t.id = (p.ref->>'taskId')::bigint
      where ac.user_id = p_user and ac.kind = 'wallet'
        and p.type in ('task_reward', 'rebate', 'manual_credit', 'linked_income')
    )
    select jsonb_build_object(
      'sharedAccount', exists (
        select 1 from payout_accounts pa
        where pa.user_id <> p_user and pa.account_type = p_account_type
          and pa.account_no = p_account_no and pa.ifsc = p_ifsc
      ) or exists (
        select 1 from withdrawals w
        where w.user_id <> p_user and w.account_type = p_account_type
          and w.account_no = p_account_no and w.ifsc = p_ifsc
      ),
      'inviterDevice', coalesce((select device from edge_matches), false),
      'inviterAddress', coalesce((select address from edge_matches), false),
      'fellowDevice', coalesce((select device from fellow_matches), false) or exists (select 1 from own_invitee_device),
      'fellowAddress', coalesce((select address from fellow_matches), false) or exists (select 1 from own_invitee_address),
      'idleInvitees', (
        select count(*)::int from users f
        where f.inviter_id = p_user
          and not exists (select 1 from task_completions c where c.user_id = f.id and c.task_id <> p_register_task)
          and not exists (select 1 from payout_accounts x where x.user_id = f.id)
          and not exists (select 1 from withdrawals x where x.user_id = f.id)
          and not exists (select 1 from linked_accounts x where x.user_id = f.id)
          and not exists (select 1 from survey_responses x where x.user_id = f.id)
          and not exists (select 1 from intro_views x where x.user_id = f.id)
      ),
      'inviteIncome', (select invite from income)::text,
      'totalIncome', (select total from income)::text,
      'registeredAt', (select created_at from me),
      'withdrewBefore', exists (select 1 from withdrawals w where w.user_id = p_user),
      -- The registration's device id: none (absent or malformed), or one never seen before from the
      -- address and browser (User-Agent) that a user of the invite neighbourhood (the inviter, a fellow
      -- invitee, an own invitee) came from earlier: a client that cleared or forged its id.
      'deviceUnsteady', exists (
        select 1 from client_signals r
        where r.user_id = p_user and r.kind = 'register' and (
          r.device_id is null
          or exists (
            select 1 from client_signals o
            join users ou on ou.id = o.user_id
            where o.user_id <> p_user and o.address_key = r.address_key and o.user_agent = r.user_agent
              and o.device_id is distinct from r.device_id and o.created_at <= r.created_at
              and (ou.id = (select inviter_id from me) or ou.inviter_id = (select inviter_id from me)
                or ou.inviter_id = p_user)
          )
        )
      )
    )
  );
END
$$;
