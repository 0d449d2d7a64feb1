ALTER TABLE "credit_requests" ADD COLUMN "user_text" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "titles" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "bodies" jsonb DEFAULT '{}'::jsonb NOT NULL;