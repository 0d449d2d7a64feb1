CREATE TABLE "linked_account_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "linked_account_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"actor" text NOT NULL,
	"method" text,
	"seconds" bigint,
	"amount" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "linked_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "linked_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"phone" text NOT NULL,
	"status" text NOT NULL,
	"linked_at" timestamp with time zone NOT NULL,
	"online_since" timestamp with time zone,
	"online_seconds" bigint DEFAULT 0 NOT NULL,
	"unsettled_seconds" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	"last_settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "linked_accounts_phone_unique" UNIQUE("phone"),
	CONSTRAINT "linked_accounts_seconds_nonnegative" CHECK ("linked_accounts"."online_seconds" >= 0 and "linked_accounts"."unsettled_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "linked_pairings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "linked_pairings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"method" text NOT NULL,
	"phone" text,
	"ref" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notice_reads" (
	"user_id" bigint NOT NULL,
	"notice_id" bigint NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_reads_user_id_notice_id_pk" PRIMARY KEY("user_id","notice_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text NOT NULL,
	"image_url" text,
	"pinned" boolean DEFAULT false NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "linked_account_events" ADD CONSTRAINT "linked_account_events_account_id_linked_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."linked_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linked_accounts" ADD CONSTRAINT "linked_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linked_pairings" ADD CONSTRAINT "linked_pairings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_reads" ADD CONSTRAINT "notice_reads_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "linked_account_events_account_idx" ON "linked_account_events" USING btree ("account_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "linked_accounts_user_idx" ON "linked_accounts" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "linked_accounts_status_idx" ON "linked_accounts" USING btree ("status","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "linked_pairings_phone_idx" ON "linked_pairings" USING btree ("phone","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "linked_pairings_user_idx" ON "linked_pairings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "linked_pairings_qr_ref_idx" ON "linked_pairings" USING btree ("ref") WHERE "linked_pairings"."method" = 'qr';--> statement-breakpoint
CREATE INDEX "notice_reads_notice_idx" ON "notice_reads" USING btree ("notice_id");--> statement-breakpoint
CREATE INDEX "notices_visible_idx" ON "notices" USING btree ("pinned" DESC NULLS LAST,"published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "notices"."published";--> statement-breakpoint
INSERT INTO "settings" ("key", "value") VALUES ('linked', '{"hourlyRatePaise": 200}'::jsonb) ON CONFLICT ("key") DO NOTHING;
