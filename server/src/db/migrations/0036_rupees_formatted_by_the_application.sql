-- The database no longer formats rupees: its refusals carry money as paise ({"paise": "<n>"}) and the
-- application formats them (docs/decisions/sql-functions.md). The functions that called kamai_rupees
-- get their current texts (db/functions) right after the migrations.
DROP FUNCTION IF EXISTS kamai_rupees(bigint);
