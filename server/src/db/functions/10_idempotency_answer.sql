-- Stores the answer of an operation whose key idempotency_claim took, for the retries to get.
CREATE OR REPLACE FUNCTION idempotency_answer(p_user bigint, p_scope text, p_key text, p_response jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_keys k SET response = p_response
  WHERE k.user_id = p_user AND k.scope = p_scope AND k.key = p_key;
END
$$;
