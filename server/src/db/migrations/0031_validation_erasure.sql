ALTER TABLE "account_validations" DROP CONSTRAINT "account_validations_fingerprint_unique";--> statement-breakpoint
ALTER TABLE "account_validations" ALTER COLUMN "fingerprint" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "number_hash" text;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "account_last4" text;--> statement-breakpoint
ALTER TABLE "account_validations" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "account_validations_owner_fingerprint_idx" ON "account_validations" USING btree ("requested_by","fingerprint");--> statement-breakpoint
CREATE INDEX "account_validations_number_hash_idx" ON "account_validations" USING btree ("number_hash");--> statement-breakpoint
-- A check answers its owner only: every payout account that was pointed at a check another user
-- started gets a check of its owner's own, started again (pending, with its start job and, at the
-- gateway's answer, the owner's own fee); the owner's lookups of that number move to it.
INSERT INTO "account_validations" ("fingerprint", "account_type", "ifsc", "account_no", "account_name", "requested_by", "gateway", "status", "attempt", "created_at", "updated_at")
SELECT DISTINCT ON (pa."user_id", av."id") av."fingerprint", av."account_type", av."ifsc", av."account_no", pa."account_name", pa."user_id", av."gateway", 'pending', 1, now(), now()
FROM "payout_accounts" pa JOIN "account_validations" av ON av."id" = pa."validation_id"
WHERE av."requested_by" <> pa."user_id"
ORDER BY pa."user_id", av."id", pa."id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "account_validation_lookups" l SET "validation_id" = own."id"
FROM "account_validations" shared, "account_validations" own
WHERE shared."id" = l."validation_id" AND shared."requested_by" <> l."user_id"
  AND own."requested_by" = l."user_id" AND own."fingerprint" = shared."fingerprint";--> statement-breakpoint
UPDATE "payout_accounts" pa SET "validation_id" = own."id"
FROM "account_validations" shared, "account_validations" own
WHERE shared."id" = pa."validation_id" AND shared."requested_by" <> pa."user_id"
  AND own."requested_by" = pa."user_id" AND own."fingerprint" = shared."fingerprint";--> statement-breakpoint
INSERT INTO "jobs" ("kind", "dedupe_key", "payload", "run_at")
SELECT 'account-validation.start', 'account-validation:start:' || av."id" || ':1', jsonb_build_object('validationId', av."id", 'attempt', 1), now()
FROM "account_validations" av
WHERE av."status" = 'pending' AND av."gateway_validation_id" IS NULL AND av."review_state" IS NULL
  AND EXISTS (SELECT 1 FROM "payout_accounts" pa WHERE pa."validation_id" = av."id")
ON CONFLICT ("dedupe_key") DO NOTHING;
