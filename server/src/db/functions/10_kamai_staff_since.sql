-- Rebates with a hold; staff earn nothing (docs/decisions/rebate-hold.md). `staff_since` is kept here,
-- whoever changes a role: set when an account becomes staff (at insert or on promotion), cleared when
-- it is a user again. The rule check `rebate_to_staff` compares a rebate's time with it.
CREATE OR REPLACE FUNCTION kamai_staff_since() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'user' THEN
    NEW.staff_since := NULL;
  ELSIF TG_OP = 'INSERT' THEN
    NEW.staff_since := coalesce(NEW.staff_since, now());
  ELSIF OLD.role = 'user' THEN
    NEW.staff_since := now();
  ELSE
    NEW.staff_since := coalesce(OLD.staff_since, now());
  END IF;
  RETURN NEW;
END
$$;
