ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "verification" jsonb DEFAULT '{"kind":"proof","proof":"either"}'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "tasks" SET "verification" = CASE "kind"
	WHEN 'register' THEN '{"kind":"automatic","condition":{"type":"register"}}'::jsonb
	WHEN 'survey' THEN '{"kind":"automatic","condition":{"type":"survey"}}'::jsonb
	WHEN 'intro' THEN '{"kind":"automatic","condition":{"type":"intro"}}'::jsonb
	WHEN 'invite' THEN jsonb_build_object('kind', 'automatic', 'condition', jsonb_build_object('type', 'invites', 'count', "target_count", 'qualified', false))
	WHEN 'withdrawal' THEN '{"kind":"automatic","condition":{"type":"withdrawals","count":1,"paid":false}}'::jsonb
	ELSE '{"kind":"proof","proof":"either"}'::jsonb
END;--> statement-breakpoint
CREATE TABLE "task_proofs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_proofs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"task_id" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"image_url" text,
	"link" text,
	"reason" text,
	"reviewer_id" bigint,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_proofs_state_known" CHECK ("task_proofs"."state" in ('pending', 'approved', 'rejected'))
);--> statement-breakpoint
ALTER TABLE "task_proofs" ADD CONSTRAINT "task_proofs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_proofs" ADD CONSTRAINT "task_proofs_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_proofs" ADD CONSTRAINT "task_proofs_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_proofs_open_idx" ON "task_proofs" USING btree ("user_id","task_id") WHERE "task_proofs"."state" <> 'rejected';--> statement-breakpoint
CREATE INDEX "task_proofs_state_idx" ON "task_proofs" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "task_proofs_user_idx" ON "task_proofs" USING btree ("user_id","task_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE TABLE "intro_watches" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"watched_seconds" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "intro_watches" ADD CONSTRAINT "intro_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "fee" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_fee_below_amount" CHECK ("withdrawals"."fee" >= 0 and "withdrawals"."fee" < "withdrawals"."amount");--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_state_known";--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_state_known" CHECK ("withdrawals"."state" in ('pending', 'approved', 'processing', 'paid', 'failed', 'rejected', 'cancelled', 'reversed'));--> statement-breakpoint
UPDATE "postings" AS p SET "ref" = p."ref" || jsonb_build_object('remark', a."after"->>'remark')
	FROM "audit_log" AS a
	WHERE a."action" = 'revenue.add' AND p."idempotency_key" = 'revenue:audit:' || a."id" AND a."after" ? 'remark';
--> statement-breakpoint
DELETE FROM "intro_views" AS v WHERE NOT EXISTS (SELECT 1 FROM "task_completions" AS c WHERE c."user_id" = v."user_id" AND c."task_id" = 4);
