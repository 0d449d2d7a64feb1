-- Money writes as database functions (issue 14 item 3; docs/decisions/withdrawals.md, ledger.md). The ledger's
-- posting rules live here, in ledger_post, and nowhere else: wallet.ledger.ts's post() calls it for
-- every posting of the app, and withdraw_request calls it for a withdrawal's hold. A change to any of
-- these is a new migration with CREATE OR REPLACE FUNCTION.
--
-- Refusals a user may see are raised with SQLSTATE 'KMAPP', the message catalogue key as the message
-- and the message's variables (JSON) as the detail: platform/errors.ts's refusalOf turns them into
-- an AppError. A posting that cannot be right (a programming error) raises 'KMPST'.

-- Paise → rupees with two decimals, as contract/src/money.ts's formatRupees: 12050 → '120.50'.
CREATE FUNCTION kamai_rupees(p_paise bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  select case when p_paise < 0 then '-' else '' end
    || (abs(p_paise) / 100)::text || '.' || lpad((abs(p_paise) % 100)::text, 2, '0')
$$;--> statement-breakpoint

CREATE FUNCTION kamai_refuse(p_key text, p_vars jsonb DEFAULT '{}'::jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'KMAPP', MESSAGE = p_key, DETAIL = p_vars::text;
END
$$;--> statement-breakpoint

-- The only way money moves (docs/design.md "Money rules"), inside the caller's transaction. Entry i names its account
-- by p_account_ids[i], or by user p_user_ids[i] and kind p_kinds[i], or by platform kind p_kinds[i];
-- p_amounts[i] is signed paise, and they sum to zero. Locks the user accounts it touches in ascending
-- id order (creating a user account of a kind the user has not had yet, a hold at the first
-- withdrawal), refuses to take any below zero (insufficient_balance) unless the key was posted before,
-- writes the posting and its entries (each with its account's balance after it) and updates the cached
-- balances. Platform accounts are read, never locked or updated. A key posted before writes nothing:
-- o_created is false and o_posting the earlier posting. A posting that would take a user account below
-- zero writes nothing either and answers o_posting NULL (unless its key was posted before).
CREATE FUNCTION ledger_post(
  p_type text, p_key text, p_ref jsonb,
  p_account_ids bigint[], p_user_ids bigint[], p_kinds text[], p_amounts bigint[],
  OUT o_posting bigint, OUT o_created boolean
) LANGUAGE plpgsql AS $$
DECLARE
  v_n int := coalesce(cardinality(p_amounts), 0);
  v_ids bigint[];
  v_users bigint[];
  v_kinds text[];
  v_balances bigint[];
  v_entry_accounts bigint[] := '{}';
  v_entry_after bigint[] := '{}';
  v_total numeric;
  v_short boolean := false;
  v_at int;
  v_platform bigint;
BEGIN
  IF v_n < 2 THEN
    RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = 'a posting needs at least two entries';
  END IF;
  IF coalesce(cardinality(p_account_ids), 0) <> v_n OR coalesce(cardinality(p_user_ids), 0) <> v_n
    OR coalesce(cardinality(p_kinds), 0) <> v_n THEN
    RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = format('entries of %s do not line up', p_key);
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(p_amounts) AS a(m) WHERE a.m IS NULL OR a.m = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = 'an entry of zero';
  END IF;
  SELECT sum(a.m) INTO v_total FROM unnest(p_amounts) AS a(m);
  IF v_total <> 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = format('entries of %s sum to %s, not 0', p_key, v_total);
  END IF;

  -- The user accounts, locked in ascending id order in one statement; a named one that does not exist
  -- yet is created, then all are locked again (the ones already held stay held).
  FOR v_round IN 1..2 LOOP
    SELECT coalesce(array_agg(l.id ORDER BY l.id), '{}'), coalesce(array_agg(l.user_id ORDER BY l.id), '{}'),
      coalesce(array_agg(l.kind ORDER BY l.id), '{}'), coalesce(array_agg(l.balance ORDER BY l.id), '{}')
    INTO v_ids, v_users, v_kinds, v_balances
    FROM (
      SELECT a.id, a.user_id, a.kind, a.balance FROM accounts a
      WHERE a.user_id IS NOT NULL AND (
        a.id = ANY (p_account_ids)
        OR (a.user_id, a.kind) IN (SELECT x.u, x.k FROM unnest(p_user_ids, p_kinds) AS x(u, k) WHERE x.u IS NOT NULL)
      )
      ORDER BY a.id
      FOR UPDATE
    ) l;
    EXIT WHEN v_round = 2 OR NOT EXISTS (
      SELECT 1 FROM unnest(p_user_ids, p_kinds) AS x(u, k)
      WHERE x.u IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM unnest(v_users, v_kinds) AS y(u, k) WHERE y.u = x.u AND y.k = x.k)
    );
    INSERT INTO accounts (user_id, kind)
    SELECT DISTINCT x.u, x.k FROM unnest(p_user_ids, p_kinds) AS x(u, k) WHERE x.u IS NOT NULL
    ON CONFLICT (user_id, kind) DO NOTHING;
  END LOOP;

  -- Each entry's account and, for a user account, its running balance after the entry.
  FOR v_i IN 1..v_n LOOP
    IF p_account_ids[v_i] IS NOT NULL THEN
      v_at := array_position(v_ids, p_account_ids[v_i]);
    ELSIF p_user_ids[v_i] IS NOT NULL THEN
      SELECT y.o INTO v_at FROM unnest(v_users, v_kinds) WITH ORDINALITY AS y(u, k, o)
      WHERE y.u = p_user_ids[v_i] AND y.k = p_kinds[v_i];
    ELSE
      v_at := NULL;
    END IF;
    IF v_at IS NOT NULL THEN
      v_balances[v_at] := v_balances[v_at] + p_amounts[v_i];
      IF v_balances[v_at] < 0 THEN v_short := true; END IF;
      v_entry_accounts := array_append(v_entry_accounts, v_ids[v_at]);
      v_entry_after := array_append(v_entry_after, v_balances[v_at]);
    ELSE
      v_platform := NULL;
      IF p_user_ids[v_i] IS NULL THEN
        SELECT a.id INTO v_platform FROM accounts a
        WHERE a.user_id IS NULL AND (a.id = p_account_ids[v_i] OR (p_account_ids[v_i] IS NULL AND a.kind = p_kinds[v_i]));
      END IF;
      IF v_platform IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = format('no account %s/%s/%s in %s',
          p_account_ids[v_i], p_user_ids[v_i], p_kinds[v_i], p_key);
      END IF;
      v_entry_accounts := array_append(v_entry_accounts, v_platform);
      v_entry_after := array_append(v_entry_after, NULL::bigint);
    END IF;
  END LOOP;

  -- Checked before the posting row is written, so a caller that catches the refusal leaves no trace;
  -- a replay of a posting made earlier still answers "already posted" whatever the balance is now.
  IF v_short THEN
    SELECT p.id INTO o_posting FROM postings p WHERE p.idempotency_key = p_key;
    -- NULL when it was not: the caller refuses (insufficient_balance). Not raised here, so a caller
    -- that catches the refusal keeps a usable transaction with nothing of this posting in it.
    o_created := false;
    RETURN;
  END IF;

  INSERT INTO postings (type, idempotency_key, ref) VALUES (p_type, p_key, coalesce(p_ref, '{}'::jsonb))
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO o_posting;
  IF o_posting IS NULL THEN
    SELECT p.id INTO o_posting FROM postings p WHERE p.idempotency_key = p_key;
    IF o_posting IS NULL THEN
      RAISE EXCEPTION 'posting % conflicted but is not visible', p_key;
    END IF;
    o_created := false;
    RETURN;
  END IF;
  -- In the caller's order: an account's newest entry carries its balance.
  INSERT INTO entries (posting_id, account_id, amount, balance_after)
  SELECT o_posting, e.a, e.m, e.b
  FROM unnest(v_entry_accounts, p_amounts, v_entry_after) WITH ORDINALITY AS e(a, m, b, o)
  ORDER BY e.o;
  UPDATE accounts SET balance = v.b
  FROM unnest(v_ids, v_balances) AS v(id, b)
  WHERE accounts.id = v.id;
  o_created := true;
END
$$;--> statement-breakpoint

-- Why an amount is refused by the withdrawal limits: {key, vars} (vars as the message shows them), or
-- NULL. The same rule as contract/src/withdrawals.ts's withdrawalLimitProblem, which the web form uses
-- to warn early; server/test/withdrawal-limits-parity.test.ts checks that the two agree.
CREATE FUNCTION withdrawal_limit_problem(
  p_amount bigint, p_min bigint, p_max bigint, p_daily_count int, p_daily_total bigint,
  p_today_count int, p_today_total bigint
) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN (
    select case
      when p_amount < p_min then
        jsonb_build_object('key', 'withdrawal_below_minimum', 'vars', jsonb_build_object('min', kamai_rupees(p_min)))
      when p_amount > p_max then
        jsonb_build_object('key', 'withdrawal_above_maximum', 'vars', jsonb_build_object('max', kamai_rupees(p_max)))
      when p_today_count >= p_daily_count then
        jsonb_build_object('key', 'withdrawal_daily_count_reached', 'vars', jsonb_build_object('count', p_daily_count))
      when p_today_total::numeric + p_amount > p_daily_total then
        jsonb_build_object('key', 'withdrawal_daily_total_reached', 'vars', jsonb_build_object(
          'total', kamai_rupees(p_daily_total), 'left', kamai_rupees(p_daily_total - p_today_total)))
    end
  );
END
$$;--> statement-breakpoint

-- Everything the risk score reads about a user (docs/decisions/fraud-signals.md), in one statement, before
-- the new withdrawal is written (so "withdrew before" means an earlier one). PL/pgSQL rather than SQL,
-- here and in withdrawal_risk: a SQL function's statement is planned again on every call, PL/pgSQL
-- keeps its plan for the connection (this one's planning was half of withdraw/add's database time).
CREATE FUNCTION withdrawal_risk_facts(
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
      'withdrewBefore', exists (select 1 from withdrawals w where w.user_id = p_user)
    )
  );
END
$$;--> statement-breakpoint

-- A withdrawal's risk from its facts under the `risk` settings (weights merged over the defaults):
-- {score, reasons}. The signals fire as follows; a weight of 0 turns one off (it is not listed either);
-- the score is the sum of the fired signals' weights, at most p_score_max; the reasons are the fired
-- signals' catalogue keys in the catalogue's order (p_catalogue: [[signal, reason key], ...], from
-- contract/src/fraud.ts's RISK_SIGNALS and RISK_REASON_KEYS).
CREATE FUNCTION withdrawal_risk(
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
            < (p_settings->>'quickWithdrawalHours')::numeric * 3600000)
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
$$;--> statement-breakpoint

-- POST user/withdraw/add (docs/design.md "Product rules") as one statement: with an idempotency key, takes it (a retry
-- of the same body gets the first answer, a different body idempotency_key_reused); refuses a frozen
-- account; under the wallet's lock, checks the payout account (the default one when p_account_id is
-- NULL), the limits (today = since p_day_start), the fee and the balance; scores the risk; writes the
-- withdrawal `pending` with its history row and moves the amount to the user's hold through
-- ledger_post. Answers {id}. p_constants carries what the application owns: the settings' defaults
-- ({withdrawal, risk}), the risk catalogue and its maximum score, the registration task's id and the
-- hold posting's key (a format with %s for the withdrawal's id).
CREATE FUNCTION withdraw_request(
  p_user bigint, p_amount bigint, p_account_id bigint, p_at timestamptz, p_day_start timestamptz,
  p_idem_scope text, p_idem_key text, p_idem_hash text, p_constants jsonb
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_claimed text;
  v_hash text;
  v_response jsonb;
  v_frozen boolean;
  v_balance bigint;
  v_account payout_accounts%ROWTYPE;
  v_limits jsonb;
  v_stored jsonb;
  v_risk_settings jsonb;
  v_count int;
  v_total bigint;
  v_problem jsonb;
  v_fee bigint;
  v_risk jsonb;
  v_id bigint;
  v_posting bigint;
BEGIN
  IF p_idem_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (user_id, scope, key, request_hash)
    VALUES (p_user, p_idem_scope, p_idem_key, p_idem_hash)
    ON CONFLICT DO NOTHING
    RETURNING idempotency_keys.key INTO v_claimed;
    IF v_claimed IS NULL THEN
      -- A concurrent request with the same key waited above until it committed (or rolled back).
      SELECT k.request_hash, k.response INTO v_hash, v_response FROM idempotency_keys k
      WHERE k.user_id = p_user AND k.scope = p_idem_scope AND k.key = p_idem_key;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'idempotency key % conflicted but is not visible', p_idem_key;
      END IF;
      IF v_hash <> p_idem_hash THEN PERFORM kamai_refuse('idempotency_key_reused'); END IF;
      RETURN v_response;
    END IF;
  END IF;

  SELECT u.frozen INTO v_frozen FROM users u WHERE u.id = p_user;
  IF coalesce(v_frozen, false) THEN PERFORM kamai_refuse('account_frozen'); END IF;

  -- The wallet's lock: every check below, the daily limits above all, is made under it.
  SELECT a.balance INTO v_balance FROM accounts a WHERE a.user_id = p_user AND a.kind = 'wallet' FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'KMPST', MESSAGE = format('wallet of user %s vanished', p_user);
  END IF;

  IF p_account_id IS NOT NULL THEN
    SELECT * INTO v_account FROM payout_accounts pa WHERE pa.id = p_account_id AND pa.user_id = p_user
    LIMIT 1 FOR SHARE;
  ELSE
    SELECT * INTO v_account FROM payout_accounts pa WHERE pa.user_id = p_user AND pa.is_default
    LIMIT 1 FOR SHARE;
  END IF;
  IF NOT FOUND THEN
    PERFORM kamai_refuse(CASE WHEN p_account_id IS NULL THEN 'withdrawal_info_incomplete' ELSE 'payout_account_not_found' END);
  END IF;

  SELECT s.value INTO v_stored FROM settings s WHERE s.key = 'withdrawal';
  v_limits := (p_constants->'withdrawal') || CASE WHEN jsonb_typeof(v_stored) = 'object' THEN v_stored ELSE '{}'::jsonb END;
  SELECT count(*)::int, coalesce(sum(w.amount), 0) INTO v_count, v_total
  FROM withdrawals w WHERE w.user_id = p_user AND w.created_at >= p_day_start;
  v_problem := withdrawal_limit_problem(p_amount, (v_limits->>'minPaise')::bigint, (v_limits->>'maxPaise')::bigint,
    (v_limits->>'dailyCount')::int, (v_limits->>'dailyTotalPaise')::bigint, v_count, v_total);
  IF v_problem IS NOT NULL THEN PERFORM kamai_refuse(v_problem->>'key', v_problem->'vars'); END IF;
  v_fee := (v_limits->>'feePaise')::bigint;
  IF p_amount <= v_fee THEN PERFORM kamai_refuse('withdrawal_fee_too_high', jsonb_build_object('fee', kamai_rupees(v_fee))); END IF;
  IF v_balance < p_amount THEN PERFORM kamai_refuse('insufficient_balance'); END IF;

  SELECT s.value INTO v_stored FROM settings s WHERE s.key = 'risk';
  v_stored := CASE WHEN jsonb_typeof(v_stored) = 'object' THEN v_stored ELSE '{}'::jsonb END;
  v_risk_settings := (p_constants->'risk') || v_stored || jsonb_build_object('weights',
    (p_constants->'risk'->'weights')
      || CASE WHEN jsonb_typeof(v_stored->'weights') = 'object' THEN v_stored->'weights' ELSE '{}'::jsonb END);
  v_risk := withdrawal_risk(
    withdrawal_risk_facts(p_user, v_account.account_type, v_account.account_no, v_account.ifsc,
      (p_constants->>'registerTaskId')::bigint),
    v_risk_settings, p_at, p_constants->'riskCatalogue', (p_constants->>'riskScoreMax')::int);

  INSERT INTO withdrawals (risk_score, risk_reasons, approvals_required, user_id, account_id, account_type, ifsc,
    account_no, account_name, amount, fee, state, created_at, updated_at)
  VALUES ((v_risk->>'score')::int, v_risk->'reasons',
    -- Four-eyes (platform/four-eyes.ts): above the threshold, two different reviewers approve.
    CASE WHEN p_amount > (v_risk_settings->>'secondApprovalAbovePaise')::bigint THEN 2 ELSE 1 END,
    p_user, v_account.id, v_account.account_type, v_account.ifsc, v_account.account_no, v_account.account_name,
    p_amount, v_fee, 'pending', p_at, p_at)
  RETURNING id INTO v_id;
  INSERT INTO withdrawal_history (withdrawal_id, to_state, actor_id, created_at) VALUES (v_id, 'pending', p_user, p_at);
  SELECT l.o_posting INTO v_posting FROM ledger_post('withdrawal_hold', format(p_constants->>'holdKey', v_id),
    jsonb_build_object('withdrawalId', v_id), ARRAY[NULL, NULL]::bigint[], ARRAY[p_user, p_user],
    ARRAY['wallet', 'hold'], ARRAY[-p_amount, p_amount]) l;
  IF v_posting IS NULL THEN PERFORM kamai_refuse('insufficient_balance'); END IF;

  v_response := jsonb_build_object('id', v_id);
  IF p_idem_key IS NOT NULL THEN
    UPDATE idempotency_keys k SET response = v_response
    WHERE k.user_id = p_user AND k.scope = p_idem_scope AND k.key = p_idem_key;
  END IF;
  RETURN v_response;
END
$$;
