CREATE TABLE "account_validation_lookups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_validation_lookups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"validation_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_validations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_validations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"fingerprint" text NOT NULL,
	"account_type" text NOT NULL,
	"ifsc" text NOT NULL,
	"account_no" text NOT NULL,
	"account_name" text NOT NULL,
	"requested_by" bigint NOT NULL,
	"gateway" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"gateway_validation_id" text,
	"fund_account_id" text,
	"account_status" text,
	"registered_name" text,
	"registered_name_key" text,
	"name_match_score" integer,
	"reason" text,
	"evidence" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "account_validations_fingerprint_unique" UNIQUE("fingerprint"),
	CONSTRAINT "account_validations_status" CHECK ("account_validations"."status" in ('pending', 'completed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_owner_kind";--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "validation_id" bigint;--> statement-breakpoint
ALTER TABLE "account_validation_lookups" ADD CONSTRAINT "account_validation_lookups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_validation_lookups" ADD CONSTRAINT "account_validation_lookups_validation_id_account_validations_id_fk" FOREIGN KEY ("validation_id") REFERENCES "public"."account_validations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_validations" ADD CONSTRAINT "account_validations_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_validation_lookups_user_validation_idx" ON "account_validation_lookups" USING btree ("user_id","validation_id");--> statement-breakpoint
CREATE INDEX "account_validation_lookups_user_created_idx" ON "account_validation_lookups" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_validations_gateway_id_idx" ON "account_validations" USING btree ("gateway_validation_id");--> statement-breakpoint
CREATE INDEX "account_validations_name_key_idx" ON "account_validations" USING btree ("registered_name_key");--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_validation_id_account_validations_id_fk" FOREIGN KEY ("validation_id") REFERENCES "public"."account_validations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_kind" CHECK (("accounts"."user_id" is not null and "accounts"."kind" in ('wallet', 'hold')) or ("accounts"."user_id" is null and "accounts"."kind" in ('platform_rewards', 'platform_revenue', 'platform_payouts', 'platform_expenses')));--> statement-breakpoint
-- The platform account that validation fees are posted to (docs/decisions/payout-account-validation.md).
INSERT INTO "accounts" ("kind") VALUES ('platform_expenses');