ALTER TABLE "otp_codes" ADD COLUMN "identity" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "canonical_identity" text;--> statement-breakpoint
CREATE INDEX "otp_codes_identity_idx" ON "otp_codes" USING btree ("identity","created_at");--> statement-breakpoint
CREATE INDEX "users_canonical_identity_idx" ON "users" USING btree ("canonical_identity");--> statement-breakpoint
-- Existing live accounts get their canonical identity (the same rule as `canonicalIdentity` in
-- contract/src/formats.ts): lower case, the `+tag` removed, Gmail's dots removed and googlemail.com
-- folded into gmail.com. Phones are already canonical.
UPDATE "users" SET "canonical_identity" = CASE
  WHEN position('@' in "username") = 0 THEN "username"
  ELSE (
    SELECT CASE WHEN d IN ('gmail.com', 'googlemail.com') THEN replace(l, '.', '') || '@gmail.com' ELSE l || '@' || d END
    FROM (
      SELECT
        CASE WHEN position('+' in lower(split_part("username", '@', 1))) > 1
          THEN left(lower(split_part("username", '@', 1)), position('+' in lower(split_part("username", '@', 1))) - 1)
          ELSE lower(split_part("username", '@', 1)) END AS l,
        lower(split_part("username", '@', 2)) AS d
    ) AS parts
  )
END
WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- Accounts registered before this rule that share one canonical identity are all kept (none is
-- deleted, all still log in): the oldest stays the identity's first account, every later one becomes a
-- returning identity, so it is no new qualified invitee and earns no first-time reward again.
UPDATE "users" AS later SET "returning_identity" = true
WHERE later."canonical_identity" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM "users" AS earlier
    WHERE earlier."canonical_identity" = later."canonical_identity" AND earlier."id" < later."id"
  );
