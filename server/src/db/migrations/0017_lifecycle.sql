CREATE TABLE "identity_ledger" (
	"hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "uploads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "returning_identity" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_name_owner_purpose_idx" ON "uploads" USING btree ("name","owner_id","purpose");--> statement-breakpoint
CREATE INDEX "uploads_owner_idx" ON "uploads" USING btree ("owner_id");--> statement-breakpoint
-- Uploads stored before they had owners, from the audit log (every upload wrote an `upload.add` row):
-- a staff member's stays public (notice images, task icons, videos); a user's is a proof screenshot,
-- served from now on by signed URL only. A proof also belongs to the user whose proof names it.
INSERT INTO "uploads" ("name", "owner_id", "purpose")
SELECT DISTINCT substring(a.target from 8), a.actor_id, CASE WHEN u.role = 'user' THEN 'proof' ELSE 'public' END
FROM "audit_log" a JOIN "users" u ON u.id = a.actor_id
WHERE a.action = 'upload.add' AND a.target LIKE 'upload:%'
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "uploads" ("name", "owner_id", "purpose")
SELECT DISTINCT substring(p.image_url from 10), p.user_id, 'proof'
FROM "task_proofs" p
WHERE p.image_url LIKE '/uploads/%'
ON CONFLICT DO NOTHING;--> statement-breakpoint

-- The risk functions again, with the device signal (issue 22): facts gain `deviceUnsteady`, the
-- signals `device_id_missing_or_rotated` (contract/src/fraud.ts). A stored `risk` setting without its
-- weight gets the default through withdraw_request's merge of the weights.
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
        and p.type in ('task_reward', 'rebate', 'revenue', 'linked_income')
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
$$;--> statement-breakpoint

-- A withdrawal's risk from its facts under the `risk` settings (weights merged over the defaults):
-- {score, reasons}. The signals fire as follows; a weight of 0 turns one off (it is not listed either);
-- the score is the sum of the fired signals' weights, at most p_score_max; the reasons are the fired
-- signals' catalogue keys in the catalogue's order (p_catalogue: [[signal, reason key], ...], from
-- contract/src/fraud.ts's RISK_SIGNALS and RISK_REASON_KEYS).
CREATE OR REPLACE FUNCTION withdrawal_risk(
  p_facts jsonb, p_settings jsonb, p_at timestamptz, p_catalogue jsonb, p_score_max int
) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    with fired(signal) as (
      select s from (values
        ('shared_payout_account', (p_facts->>'sharedAccount')::boolean),
        ('same_device_as_inviter', (p_facts->>'inviterDevice')::boolean),
        ('same_address_as_inviter', (p_facts->>'inviterAddress')::boolean),
        ('same_device_as_fellow_invitee', (p_facts->>'fellowDevice')::boolean),
        ('same_address_as_fellow_invitee', (p_facts->>'fellowAddress')::boolean),
        ('idle_invitees', (p_facts->>'idleInvitees')::int >= (p_settings->>'idleInvitees')::int),
        ('invite_reward_balance', (p_facts->>'inviteIncome')::numeric > 0
          and (p_facts->>'inviteIncome')::numeric * 10000
            > (p_facts->>'totalIncome')::numeric * (p_settings->>'inviteShareBps')::numeric),
        ('quick_first_withdrawal', not (p_facts->>'withdrewBefore')::boolean
          and extract(epoch from p_at - (p_facts->>'registeredAt')::timestamptz) * 1000
            < (p_settings->>'quickWithdrawalHours')::numeric * 3600000),
        ('device_id_missing_or_rotated', coalesce((p_facts->>'deviceUnsteady')::boolean, false))
      ) as f(s, on_)
      where f.on_
    ),
    listed as (
      select c.ord, c.item->>1 as reason, (p_settings->'weights'->>(c.item->>0))::int as weight
      from jsonb_array_elements(p_catalogue) with ordinality as c(item, ord)
      join fired on fired.signal = c.item->>0
      where (p_settings->'weights'->>(c.item->>0))::int > 0
    )
    select jsonb_build_object(
      'score', least(coalesce((select sum(weight) from listed), 0), p_score_max)::int,
      'reasons', coalesce((select jsonb_agg(reason order by ord) from listed), '[]'::jsonb)
    )
  );
END
$$;
