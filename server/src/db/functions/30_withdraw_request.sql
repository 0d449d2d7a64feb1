-- POST user/withdraw/add (docs/design.md "Product rules") as one statement: with an idempotency key, takes it (a retry
-- of the same body gets the first answer, a different body idempotency_key_reused); refuses a frozen
-- account; under the wallet's lock, checks the payout account (the default one when p_account_id is
-- NULL), the limits (today = since p_day_start), the fee and the balance; scores the risk; writes the
-- withdrawal `pending` with its history row and moves the amount to the user's hold through
-- ledger_post. Answers {id}. p_constants carries what the application owns: the settings' defaults
-- ({withdrawal, risk}), the risk catalogue and its maximum score, the registration task's id and the
-- hold posting's key (a format with %s for the withdrawal's id).
CREATE OR REPLACE FUNCTION withdraw_request(
  p_user bigint, p_amount bigint, p_account_id bigint, p_at timestamptz, p_day_start timestamptz,
  p_idem_scope text, p_idem_key text, p_idem_hash text, p_constants jsonb
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_response jsonb;
  v_frozen boolean;
  v_balance bigint;
  v_account payout_accounts%ROWTYPE;
  v_limits jsonb;
  v_stored jsonb;
  v_risk_settings jsonb;
  v_count int;
  v_total bigint;
  v_cancelled int;
  v_problem jsonb;
  v_fee bigint;
  v_risk jsonb;
  v_id bigint;
  v_posting bigint;
BEGIN
  IF p_idem_key IS NOT NULL THEN
    v_response := idempotency_claim(p_user, p_idem_scope, p_idem_key, p_idem_hash);
    IF v_response IS NOT NULL THEN RETURN v_response->'replay'; END IF;
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
  SELECT u.o_count, u.o_total, u.o_cancelled INTO v_count, v_total, v_cancelled
  FROM withdrawal_usage(p_user, p_day_start) u;
  v_problem := withdrawal_limit_problem(p_amount, (v_limits->>'minPaise')::bigint, (v_limits->>'maxPaise')::bigint,
    (v_limits->>'dailyCount')::int, (v_limits->>'dailyTotalPaise')::bigint, v_count, v_total, v_cancelled);
  IF v_problem IS NOT NULL THEN PERFORM kamai_refuse(v_problem->>'key', v_problem->'vars'); END IF;
  v_fee := (v_limits->>'feePaise')::bigint;
  IF p_amount <= v_fee THEN PERFORM kamai_refuse('withdrawal_fee_too_high', jsonb_build_object('fee', jsonb_build_object('paise', v_fee::text))); END IF;
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
    -- Four-eyes (platform/four-eyes.ts needsSecondApprover, docs/decisions/sql-functions.md): above the
    -- threshold of the `risk` settings, two different reviewers approve.
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
  IF p_idem_key IS NOT NULL THEN PERFORM idempotency_answer(p_user, p_idem_scope, p_idem_key, v_response); END IF;
  RETURN v_response;
END
$$;
