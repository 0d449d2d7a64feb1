CREATE TABLE "client_signals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "client_signals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"ip" text NOT NULL,
	"address_key" text NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"device_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"remark" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"requested_by" bigint NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"reason" text,
	"posting_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_requests_amount_positive" CHECK ("credit_requests"."amount" > 0),
	CONSTRAINT "credit_requests_state_known" CHECK ("credit_requests"."state" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "risk_score" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "risk_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "approvals_required" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approver_id" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_signals" ADD CONSTRAINT "client_signals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requests" ADD CONSTRAINT "credit_requests_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_first_approver_id_users_id_fk" FOREIGN KEY ("first_approver_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_signals_user_idx" ON "client_signals" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "client_signals_device_idx" ON "client_signals" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "client_signals_address_idx" ON "client_signals" USING btree ("address_key");--> statement-breakpoint
CREATE INDEX "credit_requests_state_idx" ON "credit_requests" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "withdrawals_risk_idx" ON "withdrawals" USING btree ("risk_score","id");--> statement-breakpoint
CREATE INDEX "payout_accounts_account_no_idx" ON "payout_accounts" USING btree ("account_no");--> statement-breakpoint
CREATE INDEX "withdrawals_account_no_idx" ON "withdrawals" USING btree ("account_no");
--> statement-breakpoint
-- Invite tasks count qualified friends now (default: a first task done); seeded texts say so, operators' edits stay.
UPDATE "tasks" SET "descriptions" = '{"en_US": "Share your invite link; the reward is yours once a friend who registered with it completes a first task.", "gu_IN": "તમારી આમંત્રણ લિંક શેર કરો; તેનાથી રજીસ્ટર કરનાર મિત્ર પ્રથમ કાર્ય પૂર્ણ કરે એટલે ઇનામ તમારું.", "hi_IN": "अपना आमंत्रण लिंक साझा करें; उससे पंजीकरण करने वाला मित्र पहला काम पूरा करे तो इनाम आपका।", "mr_IN": "तुमची आमंत्रण लिंक शेअर करा; तिच्याद्वारे नोंदणी केलेल्या मित्राने पहिले काम पूर्ण केले की बक्षीस तुमचे.", "pa_IN": "ਆਪਣਾ ਸੱਦਾ ਲਿੰਕ ਸਾਂਝਾ ਕਰੋ; ਉਸ ਨਾਲ ਰਜਿਸਟਰ ਕਰਨ ਵਾਲਾ ਦੋਸਤ ਪਹਿਲਾ ਕੰਮ ਪੂਰਾ ਕਰੇ ਤਾਂ ਇਨਾਮ ਤੁਹਾਡਾ।", "zh_CN": "分享您的邀请链接，通过它注册的好友完成第一个任务后即可领取奖励。"}'::jsonb WHERE "id" = 5 AND "descriptions"->>'en_US' = 'Share your invite link; the reward is yours once a friend registers with it.';
--> statement-breakpoint
UPDATE "tasks" SET "descriptions" = '{"en_US": "Get 1 friend to register with your invite code and complete a first task.", "gu_IN": "1 મિત્રો તમારા આમંત્રણ કોડથી રજીસ્ટર કરે અને પ્રથમ કાર્ય પૂર્ણ કરે.", "hi_IN": "1 मित्र आपके आमंत्रण कोड से पंजीकरण करें और पहला काम पूरा करें।", "mr_IN": "1 मित्रांनी तुमच्या आमंत्रण कोडने नोंदणी करून पहिले काम पूर्ण करावे.", "pa_IN": "1 ਦੋਸਤ ਤੁਹਾਡੇ ਸੱਦਾ ਕੋਡ ਨਾਲ ਰਜਿਸਟਰ ਕਰਨ ਅਤੇ ਪਹਿਲਾ ਕੰਮ ਪੂਰਾ ਕਰਨ।", "zh_CN": "邀请 1 位好友用您的邀请码注册并完成第一个任务。"}'::jsonb WHERE "id" = 7 AND "descriptions"->>'en_US' = 'Get 1 friend to register with your invite code.';
--> statement-breakpoint
UPDATE "tasks" SET "descriptions" = '{"en_US": "Get 2 friends to register with your invite code and complete a first task.", "gu_IN": "2 મિત્રો તમારા આમંત્રણ કોડથી રજીસ્ટર કરે અને પ્રથમ કાર્ય પૂર્ણ કરે.", "hi_IN": "2 मित्र आपके आमंत्रण कोड से पंजीकरण करें और पहला काम पूरा करें।", "mr_IN": "2 मित्रांनी तुमच्या आमंत्रण कोडने नोंदणी करून पहिले काम पूर्ण करावे.", "pa_IN": "2 ਦੋਸਤ ਤੁਹਾਡੇ ਸੱਦਾ ਕੋਡ ਨਾਲ ਰਜਿਸਟਰ ਕਰਨ ਅਤੇ ਪਹਿਲਾ ਕੰਮ ਪੂਰਾ ਕਰਨ।", "zh_CN": "邀请 2 位好友用您的邀请码注册并完成第一个任务。"}'::jsonb WHERE "id" = 8 AND "descriptions"->>'en_US' = 'Get 2 friends to register with your invite code.';
--> statement-breakpoint
UPDATE "tasks" SET "descriptions" = '{"en_US": "Get 3 friends to register with your invite code and complete a first task.", "gu_IN": "3 મિત્રો તમારા આમંત્રણ કોડથી રજીસ્ટર કરે અને પ્રથમ કાર્ય પૂર્ણ કરે.", "hi_IN": "3 मित्र आपके आमंत्रण कोड से पंजीकरण करें और पहला काम पूरा करें।", "mr_IN": "3 मित्रांनी तुमच्या आमंत्रण कोडने नोंदणी करून पहिले काम पूर्ण करावे.", "pa_IN": "3 ਦੋਸਤ ਤੁਹਾਡੇ ਸੱਦਾ ਕੋਡ ਨਾਲ ਰਜਿਸਟਰ ਕਰਨ ਅਤੇ ਪਹਿਲਾ ਕੰਮ ਪੂਰਾ ਕਰਨ।", "zh_CN": "邀请 3 位好友用您的邀请码注册并完成第一个任务。"}'::jsonb WHERE "id" = 9 AND "descriptions"->>'en_US' = 'Get 3 friends to register with your invite code.';
--> statement-breakpoint
UPDATE "tasks" SET "descriptions" = '{"en_US": "Get 4 friends to register with your invite code and complete a first task.", "gu_IN": "4 મિત્રો તમારા આમંત્રણ કોડથી રજીસ્ટર કરે અને પ્રથમ કાર્ય પૂર્ણ કરે.", "hi_IN": "4 मित्र आपके आमंत्रण कोड से पंजीकरण करें और पहला काम पूरा करें।", "mr_IN": "4 मित्रांनी तुमच्या आमंत्रण कोडने नोंदणी करून पहिले काम पूर्ण करावे.", "pa_IN": "4 ਦੋਸਤ ਤੁਹਾਡੇ ਸੱਦਾ ਕੋਡ ਨਾਲ ਰਜਿਸਟਰ ਕਰਨ ਅਤੇ ਪਹਿਲਾ ਕੰਮ ਪੂਰਾ ਕਰਨ।", "zh_CN": "邀请 4 位好友用您的邀请码注册并完成第一个任务。"}'::jsonb WHERE "id" = 10 AND "descriptions"->>'en_US' = 'Get 4 friends to register with your invite code.';
