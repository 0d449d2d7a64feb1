CREATE TABLE "complaint_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "complaint_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"complaint_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"actor_id" bigint NOT NULL,
	"text" text,
	"outcome" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "complaint_events_kind_known" CHECK ("complaint_events"."kind" in ('acknowledged', 'reply', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "complaints" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "complaints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"category" text NOT NULL,
	"text" text NOT NULL,
	"locale" text NOT NULL,
	"subject_kind" text,
	"subject_id" bigint,
	"state" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"acknowledged_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "complaints_state_known" CHECK ("complaints"."state" in ('open', 'acknowledged', 'closed')),
	CONSTRAINT "complaints_category_known" CHECK ("complaints"."category" in ('withdrawal', 'reward', 'payout_account', 'privacy', 'other')),
	CONSTRAINT "complaints_subject_known" CHECK (("complaints"."subject_kind" is null and "complaints"."subject_id" is null) or ("complaints"."subject_kind" in ('withdrawal', 'entry', 'payout_account') and "complaints"."subject_id" is not null)),
	CONSTRAINT "complaints_closed_outcome" CHECK (("complaints"."state" = 'closed') = ("complaints"."outcome" is not null and "complaints"."closed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "complaint_events" ADD CONSTRAINT "complaint_events_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaint_events" ADD CONSTRAINT "complaint_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaint_events_complaint_idx" ON "complaint_events" USING btree ("complaint_id","id");--> statement-breakpoint
CREATE INDEX "complaints_user_idx" ON "complaints" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "complaints_state_idx" ON "complaints" USING btree ("state","id");