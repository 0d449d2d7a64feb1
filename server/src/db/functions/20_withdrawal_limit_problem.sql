-- Why an amount is refused by the withdrawal limits: {key, vars}, or NULL. The first of
-- withdrawal_limit_refusals' refusals whose range holds the amount (the rule is written there only).
-- p_today_count and p_today_total are the day's requests not cancelled, p_today_cancelled the cancelled.
CREATE OR REPLACE FUNCTION withdrawal_limit_problem(
  p_amount bigint, p_min bigint, p_max bigint, p_daily_count int, p_daily_total bigint,
  p_today_count int, p_today_total bigint, p_today_cancelled int
) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN (
    select x.r - 'fromPaise' - 'toPaise'
    from jsonb_array_elements(withdrawal_limit_refusals(p_min, p_max, p_daily_count, p_daily_total,
      p_today_count, p_today_total, p_today_cancelled)->'refusals') with ordinality as x(r, o)
    where (x.r->>'fromPaise' is null or p_amount >= (x.r->>'fromPaise')::numeric)
      and (x.r->>'toPaise' is null or p_amount <= (x.r->>'toPaise')::numeric)
    order by x.o
    limit 1
  );
END
$$;
