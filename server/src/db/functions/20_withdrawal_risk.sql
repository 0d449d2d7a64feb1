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
