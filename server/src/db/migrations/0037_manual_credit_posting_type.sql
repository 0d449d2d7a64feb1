-- An operator's manual credit was posted under the type 'revenue', which it is not: it is money the
-- platform gives out (docs/decisions/names.md). Its rows take the type's one name, 'manual_credit'.
-- The functions that list the earning types get their current texts (db/functions) right after the
-- migrations. The idempotency keys (`revenue:audit:N`, `revenue:request:N`) and audit actions
-- (`revenue.add`, ...) stay as stored.
UPDATE postings SET type = 'manual_credit' WHERE type = 'revenue';
