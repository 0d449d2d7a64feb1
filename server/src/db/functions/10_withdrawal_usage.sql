-- A user's withdrawals requested since `p_since` as the limits take them (withdrawal_limit_refusals):
-- how many were not cancelled and their total in paise, and how many were cancelled. withdraw_request
-- counts with it under the wallet's lock; the withdraw form's limits read it too.
CREATE OR REPLACE FUNCTION withdrawal_usage(
  p_user bigint, p_since timestamptz, OUT o_count int, OUT o_total bigint, OUT o_cancelled int
) LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT (count(*) FILTER (WHERE w.state <> 'cancelled'))::int,
    coalesce(sum(w.amount) FILTER (WHERE w.state <> 'cancelled'), 0),
    (count(*) FILTER (WHERE w.state = 'cancelled'))::int
  INTO o_count, o_total, o_cancelled
  FROM withdrawals w WHERE w.user_id = p_user AND w.created_at >= p_since;
END
$$;
