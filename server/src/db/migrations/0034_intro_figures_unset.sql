-- The introduction's headline figures are an operator's claim: a fresh install claims nothing. An
-- installation whose figures are still the ones the tasks migration seeded gets none either.
UPDATE "settings" SET "value" = "value" || '{"userCount": null, "countryCount": null, "countries": []}'::jsonb
WHERE "key" = 'intro'
  AND "value"->'userCount' = '350000'::jsonb
  AND "value"->'countryCount' = '19'::jsonb
  AND "value"->'countries' = '["IN", "NP", "BD", "AE", "LK"]'::jsonb;
