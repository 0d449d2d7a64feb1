-- The first-withdrawal task pays its reward for a withdrawal that was paid, not for a request: a
-- request that is then cancelled or rejected earned the reward before (issue 24). Its texts say so,
-- unless an operator has already changed them.
UPDATE "tasks" SET "verification" = jsonb_set("verification", '{condition,paid}', 'true'::jsonb)
WHERE "id" = 6 AND "verification"->'condition'->>'type' = 'withdrawals';--> statement-breakpoint
UPDATE "tasks" SET
	"titles" = '{"en_US": "Get your first withdrawal paid", "gu_IN": "તમારો પ્રથમ ઉપાડ મેળવો", "hi_IN": "अपनी पहली निकासी का भुगतान पाएँ", "mr_IN": "पहिल्यांदा काढलेले पैसे मिळवा", "pa_IN": "ਆਪਣੀ ਪਹਿਲੀ ਕਢਵਾਈ ਦਾ ਭੁਗਤਾਨ ਪਾਓ", "zh_CN": "完成首次提现到账"}'::jsonb,
	"descriptions" = '{"en_US": "Withdraw from your balance for the first time. The reward is yours once the money reaches your account.", "gu_IN": "પહેલી વાર તમારા બેલેન્સમાંથી ઉપાડ કરો. પૈસા તમારા ખાતામાં પહોંચે ત્યારે ઇનામ તમારું.", "hi_IN": "पहली बार अपनी शेष राशि से निकासी करें। पैसा आपके खाते में पहुँचते ही इनाम आपका।", "mr_IN": "पहिल्यांदा तुमच्या शिलकीतून पैसे काढा. पैसे तुमच्या खात्यात जमा झाले की बक्षीस तुमचे.", "pa_IN": "ਪਹਿਲੀ ਵਾਰ ਆਪਣੇ ਬਕਾਏ ਵਿੱਚੋਂ ਪੈਸੇ ਕਢਵਾਓ। ਪੈਸੇ ਤੁਹਾਡੇ ਖਾਤੇ ਵਿੱਚ ਪਹੁੰਚਦੇ ਹੀ ਇਨਾਮ ਤੁਹਾਡਾ।", "zh_CN": "首次从余额中提现。款项到账后即可获得奖励。"}'::jsonb
WHERE "id" = 6 AND "titles"->>'en_US' = 'Make your first withdrawal request';
