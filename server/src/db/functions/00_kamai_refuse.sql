CREATE OR REPLACE FUNCTION kamai_refuse(p_key text, p_vars jsonb DEFAULT '{}'::jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'KMAPP', MESSAGE = p_key, DETAIL = p_vars::text;
END
$$;
