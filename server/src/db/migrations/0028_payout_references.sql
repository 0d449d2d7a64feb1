CREATE TABLE "payout_reconciliations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_reconciliations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"gateway" text NOT NULL,
	"day" text NOT NULL,
	"started_by" bigint,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "payout_mismatches" ALTER COLUMN "withdrawal_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ALTER COLUMN "state" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ALTER COLUMN "callback_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD COLUMN "kind" text DEFAULT 'callback' NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD COLUMN "gateway_payout_id" text;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD COLUMN "details" jsonb;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD COLUMN "reconciliation_id" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gateway_status" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_reference" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_idempotency_key" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_referenced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gateway_fees" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gateway_tax" bigint;--> statement-breakpoint
ALTER TABLE "payout_reconciliations" ADD CONSTRAINT "payout_reconciliations_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_reconciliations_started_idx" ON "payout_reconciliations" USING btree ("id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD CONSTRAINT "payout_mismatches_reconciliation_id_payout_reconciliations_id_fk" FOREIGN KEY ("reconciliation_id") REFERENCES "public"."payout_reconciliations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_payout_reference_idx" ON "withdrawals" USING btree ("payout_reference");--> statement-breakpoint
CREATE INDEX "withdrawals_payout_referenced_idx" ON "withdrawals" USING btree ("payout_referenced_at");--> statement-breakpoint
-- Payouts handed (or perhaps handed) to a gateway before references carried the installation's prefix
-- keep what they were sent with: reference_id = the withdrawal id, the key kamai-withdrawal-<id>.
UPDATE "withdrawals" SET "payout_reference" = "id"::text, "payout_idempotency_key" = 'kamai-withdrawal-' || "id"::text, "payout_referenced_at" = coalesce("dispatched_at", "reviewed_at", "created_at") WHERE "state" IN ('approved', 'processing', 'paid', 'failed', 'reversed') AND "gateway" IS NOT NULL;--> statement-breakpoint
-- The furthest status each payout reached, from the last report that changed it (masterpay's success is processed).
UPDATE "withdrawals" AS w SET "gateway_status" = CASE c."status" WHEN 'success' THEN 'processed' WHEN 'refused' THEN 'failed' ELSE c."status" END FROM (SELECT DISTINCT ON ("withdrawal_id") "withdrawal_id", "status" FROM "payout_callbacks" WHERE "applied" ORDER BY "withdrawal_id", "id" DESC) AS c WHERE c."withdrawal_id" = w."id";
