-- The withdrawal limits (docs/decisions/withdrawals.md) of one user's day, written once: the refusals an
-- amount can meet, in the order they are tried, and the requests left today. An amount meets the first
-- refusal whose range holds it (`fromPaise`, `toPaise`: paise as text, both ends inclusive, null for no
-- end). withdrawal_limit_problem applies them under the wallet's lock (inside withdraw_request); the
-- withdraw form gets the same list with the limits (GET user/withdraw/limits) and warns before it asks.
-- Money in `vars` is {"paise": "<n>"}: whoever shows the message formats it (contract formatMoneyVars).
-- The day's use counts the requests not cancelled (`p_today_count`, `p_today_total`) and, of the
-- `p_today_cancelled` cancelled ones, each past the first `p_daily_count`: up to `dailyCount`
-- cancellations a day use nothing of the limits.
CREATE OR REPLACE FUNCTION withdrawal_limit_refusals(
  p_min bigint, p_max bigint, p_daily_count int, p_daily_total bigint,
  p_today_count int, p_today_total bigint, p_today_cancelled int
) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_used int := p_today_count + greatest(0, p_today_cancelled - p_daily_count);
  v_left numeric := p_daily_total::numeric - p_today_total;
BEGIN
  RETURN jsonb_build_object(
    'requestsLeft', greatest(0, p_daily_count - v_used),
    'refusals', jsonb_build_array(
      jsonb_build_object('fromPaise', NULL, 'toPaise', (p_min::numeric - 1)::text,
        'key', 'withdrawal_below_minimum', 'vars', jsonb_build_object('min', jsonb_build_object('paise', p_min::text))),
      jsonb_build_object('fromPaise', (p_max::numeric + 1)::text, 'toPaise', NULL,
        'key', 'withdrawal_above_maximum', 'vars', jsonb_build_object('max', jsonb_build_object('paise', p_max::text)))
    ) || CASE WHEN v_used >= p_daily_count THEN jsonb_build_array(
      jsonb_build_object('fromPaise', NULL, 'toPaise', NULL,
        'key', 'withdrawal_daily_count_reached', 'vars', jsonb_build_object('count', p_daily_count))
    ) ELSE '[]'::jsonb END || jsonb_build_array(
      jsonb_build_object('fromPaise', (v_left + 1)::text, 'toPaise', NULL,
        'key', 'withdrawal_daily_total_reached', 'vars', jsonb_build_object(
          'total', jsonb_build_object('paise', p_daily_total::text), 'left', jsonb_build_object('paise', v_left::text)))
    )
  );
END
$$;
