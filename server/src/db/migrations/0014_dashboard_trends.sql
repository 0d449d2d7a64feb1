CREATE INDEX "withdrawal_history_created_idx" ON "withdrawal_history" USING btree ("created_at","to_state");--> statement-breakpoint
CREATE INDEX "payout_mismatches_created_idx" ON "payout_mismatches" USING btree ("created_at");
