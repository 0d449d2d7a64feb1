-- A task reward and the rebates it owes (docs/decisions/rebate-hold.md), inside the caller's transaction, as one
-- call: p_amount paise from platform rewards into p_user's wallet (type task_reward, key p_key), then for
-- each level whose earner is given (p_level1, p_level2: the caller's rebate plan, NULL when none is owed)
-- floor(p_amount × bps / 10000) paise from platform rewards into the earner's rebate_pending (type rebate,
-- key `<p_key>:rebate:<level>`) with its `rebates` row, available at p_available_at. A level whose
-- amount rounds to 0 paise posts nothing. Every posting goes through ledger_post. A key posted before
-- writes nothing: o_created is false and o_posting the earlier posting. o_balance: the wallet after.
CREATE OR REPLACE FUNCTION credit_with_rebates(
  p_user bigint, p_amount bigint, p_key text, p_ref jsonb,
  p_level1 bigint, p_level1_bps int, p_level2 bigint, p_level2_bps int, p_available_at timestamptz,
  OUT o_posting bigint, OUT o_created boolean, OUT o_balance bigint
) LANGUAGE plpgsql AS $$
DECLARE
  v_level record;
  v_amount bigint;
  v_accrual bigint;
  v_accrued boolean;
BEGIN
  SELECT lp.o_posting, lp.o_created INTO o_posting, o_created
  FROM ledger_post('task_reward', p_key, p_ref, ARRAY[NULL, NULL]::bigint[], ARRAY[NULL, p_user]::bigint[],
    ARRAY['platform_rewards', 'wallet'], ARRAY[-p_amount, p_amount]) lp;
  IF o_created THEN
    FOR v_level IN
      SELECT l.level, l.earner, l.bps FROM (VALUES (1, p_level1, p_level1_bps), (2, p_level2, p_level2_bps))
        AS l(level, earner, bps)
      WHERE l.earner IS NOT NULL
      ORDER BY l.level
    LOOP
      v_amount := p_amount * v_level.bps / 10000;
      CONTINUE WHEN v_amount <= 0;
      SELECT lp.o_posting, lp.o_created INTO v_accrual, v_accrued
      FROM ledger_post('rebate', p_key || ':rebate:' || v_level.level,
        jsonb_build_object('inviteeId', p_user, 'level', v_level.level, 'sourcePostingId', o_posting),
        ARRAY[NULL, NULL]::bigint[], ARRAY[NULL, v_level.earner]::bigint[], ARRAY['platform_rewards', 'rebate_pending'],
        ARRAY[-v_amount, v_amount]) lp;
      CONTINUE WHEN NOT v_accrued;
      INSERT INTO rebates (source_posting_id, invitee_id, earner_id, level, bps, amount, available_at, accrual_posting_id)
      VALUES (o_posting, p_user, v_level.earner, v_level.level, v_level.bps, v_amount, p_available_at, v_accrual)
      ON CONFLICT DO NOTHING;
    END LOOP;
  END IF;
  SELECT a.balance INTO o_balance FROM accounts a WHERE a.user_id = p_user AND a.kind = 'wallet';
END
$$;
