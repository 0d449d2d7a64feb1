CREATE TABLE "unclaimed_money" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "unclaimed_money_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"withdrawal_id" bigint NOT NULL,
	"posting_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"handled_by" bigint,
	"handled_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unclaimed_money_posting_id_unique" UNIQUE("posting_id"),
	CONSTRAINT "unclaimed_money_kind" CHECK ("unclaimed_money"."kind" in ('reversal', 'refund')),
	CONSTRAINT "unclaimed_money_amount_positive" CHECK ("unclaimed_money"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" DROP CONSTRAINT "accounts_owner_kind";--> statement-breakpoint
ALTER TABLE "unclaimed_money" ADD CONSTRAINT "unclaimed_money_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unclaimed_money" ADD CONSTRAINT "unclaimed_money_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unclaimed_money" ADD CONSTRAINT "unclaimed_money_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unclaimed_money" ADD CONSTRAINT "unclaimed_money_handled_by_users_id_fk" FOREIGN KEY ("handled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unclaimed_money_open_idx" ON "unclaimed_money" USING btree ("id") WHERE "unclaimed_money"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "unclaimed_money_withdrawal_idx" ON "unclaimed_money" USING btree ("withdrawal_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_owner_kind" CHECK (("accounts"."user_id" is not null and "accounts"."kind" in ('wallet', 'hold', 'rebate_pending')) or ("accounts"."user_id" is null and "accounts"."kind" in ('platform_rewards', 'platform_revenue', 'platform_payouts', 'platform_expenses', 'platform_unclaimed')));--> statement-breakpoint
-- Money returned for a deleted account lands here, never in the frozen wallet (docs/decisions/unclaimed-money.md).
INSERT INTO "accounts" ("kind") VALUES ('platform_unclaimed');
