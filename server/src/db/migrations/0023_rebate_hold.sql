CREATE TABLE "rebates" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rebates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source_posting_id" bigint NOT NULL,
	"invitee_id" bigint NOT NULL,
	"earner_id" bigint NOT NULL,
	"level" integer NOT NULL,
	"bps" integer NOT NULL,
	"amount" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"accrual_posting_id" bigint NOT NULL,
	"settle_posting_id" bigint,
	"reason" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rebates_accrual_posting_id_unique" UNIQUE("accrual_posting_id"),
	CONSTRAINT "rebates_settle_posting_id_unique" UNIQUE("settle_posting_id"),
	CONSTRAINT "rebates_level" CHECK ("rebates"."level" in (1, 2)),
	CONSTRAINT "rebates_amount_positive" CHECK ("rebates"."amount" > 0),
	CONSTRAINT "rebates_state" CHECK ("rebates"."state" in ('pending', 'available', 'reversed'))
);
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_owner_kind";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_source_posting_id_postings_id_fk" FOREIGN KEY ("source_posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_invitee_id_users_id_fk" FOREIGN KEY ("invitee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_earner_id_users_id_fk" FOREIGN KEY ("earner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_accrual_posting_id_postings_id_fk" FOREIGN KEY ("accrual_posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_settle_posting_id_postings_id_fk" FOREIGN KEY ("settle_posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rebates_source_level_idx" ON "rebates" USING btree ("source_posting_id","level");--> statement-breakpoint
CREATE INDEX "rebates_due_idx" ON "rebates" USING btree ("available_at","id") WHERE "rebates"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "rebates_earner_idx" ON "rebates" USING btree ("earner_id","invitee_id");--> statement-breakpoint
CREATE INDEX "rebates_invitee_idx" ON "rebates" USING btree ("invitee_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_kind" CHECK (("accounts"."user_id" is not null and "accounts"."kind" in ('wallet', 'hold', 'rebate_pending')) or ("accounts"."user_id" is null and "accounts"."kind" in ('platform_rewards', 'platform_revenue', 'platform_payouts', 'platform_expenses')));--> statement-breakpoint
-- Rebates with a hold; staff earn nothing (docs/decisions/rebate-hold.md). `staff_since` is kept here,
-- whoever changes a role: set when an account becomes staff (at insert or on promotion), cleared when
-- it is a user again. The rule check `rebate_to_staff` compares a rebate's time with it.
CREATE FUNCTION kamai_staff_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'user' THEN
    NEW.staff_since := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.staff_since := coalesce(NEW.staff_since, now());
  ELSIF OLD.role = 'user' THEN
    NEW.staff_since := now();
  ELSE
    NEW.staff_since := coalesce(OLD.staff_since, now());
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_staff_since BEFORE INSERT OR UPDATE OF role ON users
  FOR EACH ROW EXECUTE FUNCTION kamai_staff_since();--> statement-breakpoint
UPDATE users SET staff_since = created_at WHERE role <> 'user';--> statement-breakpoint
-- Rebates paid before the hold existed went straight to the wallet: each gets its row, available,
-- with that posting as both accrual and release, traced to the credit it was paid on (its key without
-- `:rebate:<level>`). The ones paid on operator credits or linked income stay visible to the rule
-- check as not owed on a task reward.
INSERT INTO rebates (source_posting_id, invitee_id, earner_id, level, bps, amount, state, available_at,
  accrual_posting_id, settle_posting_id, settled_at, created_at)
SELECT s.id, (p.ref->>'inviteeId')::bigint, a.user_id, (p.ref->>'level')::int,
  coalesce((SELECT (st.value->>(CASE p.ref->>'level' WHEN '1' THEN 'level1Bps' ELSE 'level2Bps' END))::int
    FROM settings st WHERE st.key = 'rebate'), CASE p.ref->>'level' WHEN '1' THEN 1000 ELSE 500 END),
  e.amount, 'available', p.created_at, p.id, p.id, p.created_at, p.created_at
FROM postings p
JOIN entries e ON e.posting_id = p.id AND e.amount > 0
JOIN accounts a ON a.id = e.account_id AND a.kind = 'wallet'
JOIN postings s ON s.idempotency_key = regexp_replace(p.idempotency_key, ':rebate:[12]$', '')
WHERE p.type = 'rebate' AND p.ref ? 'inviteeId' AND p.ref->>'level' IN ('1', '2')
ON CONFLICT DO NOTHING;
