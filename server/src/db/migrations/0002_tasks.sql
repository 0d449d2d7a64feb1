CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_id" bigint NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intro_views" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"answers" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_completions" (
	"user_id" bigint NOT NULL,
	"task_id" bigint NOT NULL,
	"posting_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_completions_user_id_task_id_pk" PRIMARY KEY("user_id","task_id")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"section" text NOT NULL,
	"kind" text NOT NULL,
	"titles" jsonb NOT NULL,
	"descriptions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reward" bigint NOT NULL,
	"target_count" integer DEFAULT 1 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"system" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tasks_reward_positive" CHECK ("tasks"."reward" > 0)
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intro_views" ADD CONSTRAINT "intro_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_completions" ADD CONSTRAINT "task_completions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_completions" ADD CONSTRAINT "task_completions_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_completions" ADD CONSTRAINT "task_completions_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_completions_task_idx" ON "task_completions" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "users_inviter_idx" ON "users" USING btree ("inviter_id","id" DESC NULLS LAST);--> statement-breakpoint
-- System tasks 2-10 (docs/design.md "Product rules") have fixed ids; operator tasks start at 101. Rewards in paise.
INSERT INTO "tasks" ("id", "section", "kind", "titles", "descriptions", "reward", "target_count", "sort", "system") OVERRIDING SYSTEM VALUE VALUES
	(2, 'newbie', 'register', '{"en_US": "Register an account", "gu_IN": "એકાઉન્ટ રજીસ્ટર કરો", "hi_IN": "खाता पंजीकृत करें", "mr_IN": "खाते नोंदणी करा", "pa_IN": "ਖਾਤਾ ਰਜਿਸਟਰ ਕਰੋ", "zh_CN": "注册账户"}'::jsonb, '{"en_US": "Create your Kamai account; the reward is credited automatically.", "gu_IN": "તમારું Kamai એકાઉન્ટ બનાવો; ઇનામ આપમેળે જમા થાય છે.", "hi_IN": "अपना Kamai खाता बनाएँ; इनाम अपने-आप जमा हो जाता है।", "mr_IN": "तुमचे Kamai खाते तयार करा; बक्षीस आपोआप जमा होते.", "pa_IN": "ਆਪਣਾ Kamai ਖਾਤਾ ਬਣਾਓ; ਇਨਾਮ ਆਪਣੇ-ਆਪ ਜਮ੍ਹਾਂ ਹੋ ਜਾਂਦਾ ਹੈ।", "zh_CN": "创建您的 Kamai 账户，奖励将自动到账。"}'::jsonb, 500, 1, 10, true),
	(3, 'newbie', 'survey', '{"en_US": "Answer the survey", "gu_IN": "સર્વેના જવાબ આપો", "hi_IN": "सर्वेक्षण का उत्तर दें", "mr_IN": "सर्वेक्षणाची उत्तरे द्या", "pa_IN": "ਸਰਵੇਖਣ ਦੇ ਜਵਾਬ ਦਿਓ", "zh_CN": "完成问卷调查"}'::jsonb, '{"en_US": "Answer six short questions about yourself.", "gu_IN": "તમારા વિશેના છ ટૂંકા પ્રશ્નોના જવાબ આપો.", "hi_IN": "अपने बारे में छह छोटे प्रश्नों के उत्तर दें।", "mr_IN": "तुमच्याबद्दलच्या सहा छोट्या प्रश्नांची उत्तरे द्या.", "pa_IN": "ਆਪਣੇ ਬਾਰੇ ਛੇ ਛੋਟੇ ਸਵਾਲਾਂ ਦੇ ਜਵਾਬ ਦਿਓ।", "zh_CN": "回答六个关于您自己的简短问题。"}'::jsonb, 1000, 1, 20, true),
	(4, 'newbie', 'intro', '{"en_US": "Watch the introduction", "gu_IN": "પરિચય જુઓ", "hi_IN": "परिचय देखें", "mr_IN": "परिचय पहा", "pa_IN": "ਜਾਣ-ਪਛਾਣ ਦੇਖੋ", "zh_CN": "观看平台介绍"}'::jsonb, '{"en_US": "Learn how Kamai works in a short presentation.", "gu_IN": "ટૂંકી પ્રસ્તુતિમાં જાણો કે Kamai કેવી રીતે કામ કરે છે.", "hi_IN": "एक छोटी प्रस्तुति में जानें कि Kamai कैसे काम करता है।", "mr_IN": "Kamai कसे काम करते ते एका छोट्या सादरीकरणात जाणून घ्या.", "pa_IN": "ਇੱਕ ਛੋਟੀ ਪੇਸ਼ਕਾਰੀ ਵਿੱਚ ਜਾਣੋ ਕਿ Kamai ਕਿਵੇਂ ਕੰਮ ਕਰਦਾ ਹੈ।", "zh_CN": "通过简短的演示了解 Kamai 如何运作。"}'::jsonb, 500, 1, 30, true),
	(5, 'newbie', 'invite', '{"en_US": "Invite a friend", "gu_IN": "એક મિત્રને આમંત્રિત કરો", "hi_IN": "एक मित्र को आमंत्रित करें", "mr_IN": "एका मित्राला आमंत्रित करा", "pa_IN": "ਇੱਕ ਦੋਸਤ ਨੂੰ ਸੱਦਾ ਦਿਓ", "zh_CN": "邀请一位好友"}'::jsonb, '{"en_US": "Share your invite link; the reward is yours once a friend registers with it.", "gu_IN": "તમારી આમંત્રણ લિંક શેર કરો; કોઈ મિત્ર તેનાથી રજીસ્ટર કરે એટલે ઇનામ તમારું.", "hi_IN": "अपना आमंत्रण लिंक साझा करें; कोई मित्र उससे पंजीकरण करे तो इनाम आपका।", "mr_IN": "तुमची आमंत्रण लिंक शेअर करा; एखाद्या मित्राने तिच्याद्वारे नोंदणी केली की बक्षीस तुमचे.", "pa_IN": "ਆਪਣਾ ਸੱਦਾ ਲਿੰਕ ਸਾਂਝਾ ਕਰੋ; ਕੋਈ ਦੋਸਤ ਉਸ ਨਾਲ ਰਜਿਸਟਰ ਕਰੇ ਤਾਂ ਇਨਾਮ ਤੁਹਾਡਾ।", "zh_CN": "分享您的邀请链接，好友通过它注册后即可领取奖励。"}'::jsonb, 2000, 1, 40, true),
	(6, 'newbie', 'withdrawal', '{"en_US": "Make your first withdrawal request", "gu_IN": "પ્રથમ ઉપાડ વિનંતી કરો", "hi_IN": "पहला निकासी अनुरोध करें", "mr_IN": "पहिली पैसे काढण्याची विनंती करा", "pa_IN": "ਪਹਿਲੀ ਵਾਰ ਪੈਸੇ ਕਢਵਾਉਣ ਦੀ ਬੇਨਤੀ ਕਰੋ", "zh_CN": "首次申请提现"}'::jsonb, '{"en_US": "Request a withdrawal of your balance for the first time.", "gu_IN": "પહેલી વાર તમારા બેલેન્સમાંથી ઉપાડની વિનંતી કરો.", "hi_IN": "पहली बार अपनी शेष राशि से निकासी का अनुरोध करें।", "mr_IN": "पहिल्यांदा तुमच्या शिलकीतून पैसे काढण्याची विनंती करा.", "pa_IN": "ਪਹਿਲੀ ਵਾਰ ਆਪਣੇ ਬਕਾਏ ਵਿੱਚੋਂ ਪੈਸੇ ਕਢਵਾਉਣ ਦੀ ਬੇਨਤੀ ਕਰੋ।", "zh_CN": "首次从余额中申请提现。"}'::jsonb, 1000, 1, 50, true),
	(7, 'friends', 'invite', '{"en_US": "Invite 1 friend", "gu_IN": "1 મિત્રને આમંત્રિત કરો", "hi_IN": "1 मित्र को आमंत्रित करें", "mr_IN": "1 मित्राला आमंत्रित करा", "pa_IN": "1 ਦੋਸਤ ਨੂੰ ਸੱਦਾ ਦਿਓ", "zh_CN": "邀请 1 位好友"}'::jsonb, '{"en_US": "Get 1 friend to register with your invite code.", "gu_IN": "તમારા આમંત્રણ કોડથી 1 મિત્રને રજીસ્ટર કરાવો.", "hi_IN": "अपने आमंत्रण कोड से 1 मित्र का पंजीकरण कराएँ।", "mr_IN": "तुमच्या आमंत्रण कोडने 1 मित्राची नोंदणी करून घ्या.", "pa_IN": "ਆਪਣੇ ਸੱਦਾ ਕੋਡ ਨਾਲ 1 ਦੋਸਤ ਨੂੰ ਰਜਿਸਟਰ ਕਰਵਾਓ।", "zh_CN": "通过您的邀请码邀请 1 位好友注册。"}'::jsonb, 2000, 1, 10, true),
	(8, 'friends', 'invite', '{"en_US": "Invite 2 friends", "gu_IN": "2 મિત્રોને આમંત્રિત કરો", "hi_IN": "2 मित्रों को आमंत्रित करें", "mr_IN": "2 मित्रांना आमंत्रित करा", "pa_IN": "2 ਦੋਸਤਾਂ ਨੂੰ ਸੱਦਾ ਦਿਓ", "zh_CN": "邀请 2 位好友"}'::jsonb, '{"en_US": "Get 2 friends to register with your invite code.", "gu_IN": "તમારા આમંત્રણ કોડથી 2 મિત્રોને રજીસ્ટર કરાવો.", "hi_IN": "अपने आमंत्रण कोड से 2 मित्रों का पंजीकरण कराएँ।", "mr_IN": "तुमच्या आमंत्रण कोडने 2 मित्रांची नोंदणी करून घ्या.", "pa_IN": "ਆਪਣੇ ਸੱਦਾ ਕੋਡ ਨਾਲ 2 ਦੋਸਤਾਂ ਨੂੰ ਰਜਿਸਟਰ ਕਰਵਾਓ।", "zh_CN": "通过您的邀请码邀请 2 位好友注册。"}'::jsonb, 5000, 2, 20, true),
	(9, 'friends', 'invite', '{"en_US": "Invite 3 friends", "gu_IN": "3 મિત્રોને આમંત્રિત કરો", "hi_IN": "3 मित्रों को आमंत्रित करें", "mr_IN": "3 मित्रांना आमंत्रित करा", "pa_IN": "3 ਦੋਸਤਾਂ ਨੂੰ ਸੱਦਾ ਦਿਓ", "zh_CN": "邀请 3 位好友"}'::jsonb, '{"en_US": "Get 3 friends to register with your invite code.", "gu_IN": "તમારા આમંત્રણ કોડથી 3 મિત્રોને રજીસ્ટર કરાવો.", "hi_IN": "अपने आमंत्रण कोड से 3 मित्रों का पंजीकरण कराएँ।", "mr_IN": "तुमच्या आमंत्रण कोडने 3 मित्रांची नोंदणी करून घ्या.", "pa_IN": "ਆਪਣੇ ਸੱਦਾ ਕੋਡ ਨਾਲ 3 ਦੋਸਤਾਂ ਨੂੰ ਰਜਿਸਟਰ ਕਰਵਾਓ।", "zh_CN": "通过您的邀请码邀请 3 位好友注册。"}'::jsonb, 10000, 3, 30, true),
	(10, 'friends', 'invite', '{"en_US": "Invite 4 friends", "gu_IN": "4 મિત્રોને આમંત્રિત કરો", "hi_IN": "4 मित्रों को आमंत्रित करें", "mr_IN": "4 मित्रांना आमंत्रित करा", "pa_IN": "4 ਦੋਸਤਾਂ ਨੂੰ ਸੱਦਾ ਦਿਓ", "zh_CN": "邀请 4 位好友"}'::jsonb, '{"en_US": "Get 4 friends to register with your invite code.", "gu_IN": "તમારા આમંત્રણ કોડથી 4 મિત્રોને રજીસ્ટર કરાવો.", "hi_IN": "अपने आमंत्रण कोड से 4 मित्रों का पंजीकरण कराएँ।", "mr_IN": "तुमच्या आमंत्रण कोडने 4 मित्रांची नोंदणी करून घ्या.", "pa_IN": "ਆਪਣੇ ਸੱਦਾ ਕੋਡ ਨਾਲ 4 ਦੋਸਤਾਂ ਨੂੰ ਰਜਿਸਟਰ ਕਰਵਾਓ।", "zh_CN": "通过您的邀请码邀请 4 位好友注册。"}'::jsonb, 20000, 4, 40, true);--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "id" RESTART WITH 101;--> statement-breakpoint
INSERT INTO "settings" ("key", "value") VALUES
	('rebate', '{"level1Bps": 1000, "level2Bps": 500}'::jsonb),
	('intro', '{"videoUrl": null, "userCount": 350000, "countryCount": 19, "countries": ["IN", "NP", "BD", "AE", "LK"]}'::jsonb);
