CREATE TABLE "payout_webhooks_ignored" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_webhooks_ignored_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"gateway" text NOT NULL,
	"event" text,
	"payout_id" text,
	"reference_id" text,
	"reason" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payout_webhooks_ignored_created_idx" ON "payout_webhooks_ignored" USING btree ("created_at");