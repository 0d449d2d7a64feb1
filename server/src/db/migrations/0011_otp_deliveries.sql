CREATE TABLE "otp_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "otp_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"provider_message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "otp_deliveries_target_idx" ON "otp_deliveries" USING btree ("target","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "otp_deliveries_message_idx" ON "otp_deliveries" USING btree ("provider","provider_message_id");--> statement-breakpoint
CREATE INDEX "otp_deliveries_created_idx" ON "otp_deliveries" USING btree ("created_at");
