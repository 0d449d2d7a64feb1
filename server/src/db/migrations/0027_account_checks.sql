ALTER TABLE "account_validations" ADD COLUMN "review_state" text;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "review_cause" text;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "review_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "first_approver_id" bigint;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "reviewed_by" bigint;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "refusal" text;--> statement-breakpoint
ALTER TABLE "account_validations" ADD CONSTRAINT "account_validations_first_approver_id_users_id_fk" FOREIGN KEY ("first_approver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_validations" ADD CONSTRAINT "account_validations_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_validations_queue_idx" ON "account_validations" USING btree ("status","review_state","created_at");--> statement-breakpoint
ALTER TABLE "account_validations" ADD CONSTRAINT "account_validations_review_state" CHECK ("account_validations"."review_state" is null or "account_validations"."review_state" in ('queued', 'approved', 'refused'));