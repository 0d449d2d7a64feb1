CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at","id");
