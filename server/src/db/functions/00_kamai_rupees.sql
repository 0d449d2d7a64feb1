-- Paise → rupees with two decimals, as contract/src/money.ts's formatRupees: 12050 → '120.50'.
CREATE OR REPLACE FUNCTION kamai_rupees(p_paise bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  select case when p_paise < 0 then '-' else '' end
    || (abs(p_paise) / 100)::text || '.' || lpad((abs(p_paise) % 100)::text, 2, '0')
$$;
