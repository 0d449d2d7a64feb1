CREATE OR REPLACE FUNCTION withdrawal_limit_problem(
  p_amount bigint, p_min bigint, p_max bigint, p_daily_count int, p_daily_total bigint,
  p_today_count int, p_today_total bigint, p_today_cancelled int
) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN (
    select case
      when p_amount < p_min then
        jsonb_build_object('key', 'withdrawal_below_minimum', 'vars', jsonb_build_object('min', kamai_rupees(p_min)))
      when p_amount > p_max then
        jsonb_build_object('key', 'withdrawal_above_maximum', 'vars', jsonb_build_object('max', kamai_rupees(p_max)))
      when p_today_count + greatest(0, p_today_cancelled - p_daily_count) >= p_daily_count then
        jsonb_build_object('key', 'withdrawal_daily_count_reached', 'vars', jsonb_build_object('count', p_daily_count))
      when p_today_total::numeric + p_amount > p_daily_total then
        jsonb_build_object('key', 'withdrawal_daily_total_reached', 'vars', jsonb_build_object(
          'total', kamai_rupees(p_daily_total), 'left', kamai_rupees(p_daily_total - p_today_total)))
    end
  );
END
$$;
