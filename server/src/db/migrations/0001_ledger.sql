CREATE TABLE "entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"posting_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"ref" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postings_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entries_account_idx" ON "entries" USING btree ("account_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "entries_posting_idx" ON "entries" USING btree ("posting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_platform_kind_idx" ON "accounts" USING btree ("kind") WHERE "accounts"."user_id" is null;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_kind" CHECK (("accounts"."user_id" is not null and "accounts"."kind" in ('wallet', 'hold')) or ("accounts"."user_id" is null and "accounts"."kind" in ('platform_rewards', 'platform_revenue', 'platform_payouts')));--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_nonnegative" CHECK ("accounts"."user_id" is null or "accounts"."balance" >= 0);--> statement-breakpoint
INSERT INTO "accounts" ("kind") VALUES ('platform_rewards'), ('platform_revenue'), ('platform_payouts');
