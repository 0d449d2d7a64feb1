-- Takes a request's Idempotency-Key for a user and route (docs/decisions/withdrawals.md), the one
-- implementation of it: platform/idempotency.ts's idempotent() calls it for the routes that run in a
-- TypeScript transaction, withdraw_request for withdraw/add. NULL: this call took the key, and the caller
-- runs the operation and stores its answer with idempotency_answer in the same transaction.
-- {"replay": answer}: the same request (`p_hash`, the SHA-256 of its parsed body) came before; one
-- running at the same moment is waited for here until it commits or rolls back. Another request under
-- the same key is refused: idempotency_key_reused.
CREATE OR REPLACE FUNCTION idempotency_claim(p_user bigint, p_scope text, p_key text, p_hash text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_claimed text;
  v_hash text;
  v_response jsonb;
BEGIN
  INSERT INTO idempotency_keys (user_id, scope, key, request_hash)
  VALUES (p_user, p_scope, p_key, p_hash)
  ON CONFLICT DO NOTHING
  RETURNING idempotency_keys.key INTO v_claimed;
  IF v_claimed IS NOT NULL THEN RETURN NULL; END IF;
  SELECT k.request_hash, k.response INTO v_hash, v_response FROM idempotency_keys k
  WHERE k.user_id = p_user AND k.scope = p_scope AND k.key = p_key;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'idempotency key % conflicted but is not visible', p_key;
  END IF;
  IF v_hash <> p_hash THEN PERFORM kamai_refuse('idempotency_key_reused'); END IF;
  RETURN jsonb_build_object('replay', v_response);
END
$$;
