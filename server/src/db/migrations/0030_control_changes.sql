CREATE TABLE "control_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "control_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"old_value" jsonb NOT NULL,
	"new_value" jsonb NOT NULL,
	"proposed_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"earliest_apply_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	CONSTRAINT "control_changes_state_known" CHECK ("control_changes"."state" in ('pending', 'applied', 'cancelled', 'expired')),
	CONSTRAINT "control_changes_kind_known" CHECK ("control_changes"."kind" in ('settings', 'rebate', 'role', 'unfreeze'))
);
--> statement-breakpoint
ALTER TABLE "control_changes" ADD CONSTRAINT "control_changes_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_changes" ADD CONSTRAINT "control_changes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "control_changes_state_idx" ON "control_changes" USING btree ("state","id");--> statement-breakpoint
-- Dual control (docs/decisions/dual-control.md): an account that stops being staff, or staff that is
-- frozen, loses its pending first approvals at that moment, whoever changes the row: a withdrawal or
-- a queued account check it approved first needs a first approval again. An admin that stops being an
-- active admin loses its pending credit requests (rejected, `requester_removed`) and its pending
-- proposed control changes (cancelled).
CREATE FUNCTION kamai_void_staff_approvals() RETURNS trigger LANGUAGE plpgsql AS $$
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
$$;--> statement-breakpoint
CREATE TRIGGER users_staff_removed AFTER UPDATE OF role, frozen ON users
  FOR EACH ROW EXECUTE FUNCTION kamai_void_staff_approvals();
