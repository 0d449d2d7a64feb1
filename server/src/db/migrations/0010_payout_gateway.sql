ALTER TABLE "withdrawals" ADD COLUMN "gateway" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gateway_payout_id" text;--> statement-breakpoint
UPDATE "withdrawals" SET "gateway" = 'sandbox' WHERE "state" IN ('approved', 'processing', 'paid', 'failed');--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_state_known";--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_state_known" CHECK ("withdrawals"."state" in ('pending', 'approved', 'processing', 'paid', 'failed', 'rejected', 'reversed'));--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_gateway_payout_idx" ON "withdrawals" USING btree ("gateway","gateway_payout_id") WHERE "withdrawals"."gateway_payout_id" is not null;--> statement-breakpoint
CREATE TABLE "payout_callbacks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_callbacks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"withdrawal_id" bigint NOT NULL,
	"gateway" text NOT NULL,
	"event_key" text NOT NULL,
	"status" text NOT NULL,
	"payload" jsonb NOT NULL,
	"applied" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_callbacks_event_key_unique" UNIQUE("event_key")
);
--> statement-breakpoint
CREATE TABLE "payout_mismatches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_mismatches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"withdrawal_id" bigint NOT NULL,
	"gateway" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"state" text NOT NULL,
	"callback_status" text NOT NULL,
	"callback_amount" bigint,
	"callback_reference" text,
	"settled_callback_id" bigint,
	"callback_id" bigint NOT NULL,
	"resolution" text,
	"resolution_reason" text,
	"resolved_by" bigint,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_mismatches_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
ALTER TABLE "payout_callbacks" ADD CONSTRAINT "payout_callbacks_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD CONSTRAINT "payout_mismatches_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD CONSTRAINT "payout_mismatches_settled_callback_id_payout_callbacks_id_fk" FOREIGN KEY ("settled_callback_id") REFERENCES "public"."payout_callbacks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD CONSTRAINT "payout_mismatches_callback_id_payout_callbacks_id_fk" FOREIGN KEY ("callback_id") REFERENCES "public"."payout_callbacks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_mismatches" ADD CONSTRAINT "payout_mismatches_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_callbacks_withdrawal_idx" ON "payout_callbacks" USING btree ("withdrawal_id","id");--> statement-breakpoint
CREATE INDEX "payout_mismatches_withdrawal_idx" ON "payout_mismatches" USING btree ("withdrawal_id");--> statement-breakpoint
CREATE INDEX "payout_mismatches_open_idx" ON "payout_mismatches" USING btree ("id") WHERE "payout_mismatches"."resolved_at" is null;
