-- Dual control (docs/decisions/dual-control.md): an account that stops being staff, or staff that is
-- frozen, loses its pending first approvals at that moment, whoever changes the row: a withdrawal or
-- a queued account check it approved first needs a first approval again. An admin that stops being an
-- active admin loses its pending credit requests (rejected, `requester_removed`) and its pending
-- proposed control changes (cancelled).
CREATE OR REPLACE FUNCTION kamai_void_staff_approvals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.role <> 'user' AND (NEW.role = 'user' OR (NEW.frozen AND NOT OLD.frozen)) THEN
    UPDATE withdrawals SET first_approver_id = NULL, first_approved_at = NULL
      WHERE first_approver_id = NEW.id AND state = 'pending';
    UPDATE account_validations SET first_approver_id = NULL
      WHERE first_approver_id = NEW.id AND review_state = 'queued';
  END IF;
  IF OLD.role = 'admin' AND (NEW.role <> 'admin' OR (NEW.frozen AND NOT OLD.frozen)) THEN
    UPDATE credit_requests SET state = 'rejected', reason = 'requester_removed', decided_at = now()
      WHERE requested_by = NEW.id AND state = 'pending';
    UPDATE control_changes SET state = 'cancelled', decided_at = now()
      WHERE proposed_by = NEW.id AND state = 'pending';
  END IF;
  RETURN NULL;
END
$$;
