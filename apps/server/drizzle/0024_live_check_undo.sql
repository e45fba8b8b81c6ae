-- Issue 27: an undo (checkins/undo.ts) is announced as what it is. Migration 0008's
-- trigger only looked at check_out_at: an arrival undone (undone_at set, check_out_at
-- still null) was not announced at all, and the screen that undid it read the card's
-- disappearance as a departure; a departure undone (check_out_at cleared) read as an
-- arrival. Now the op says 'arrival_undone' or 'departure_undone', so a live screen
-- says 'Arrivée annulée' and refetches 'Attendus aujourd'hui', where the person is
-- expected again (on-site/presence.ts). Only ids travel, as before.
CREATE OR REPLACE FUNCTION sesame_notify_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  op text;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.check_out_at IS NOT DISTINCT FROM OLD.check_out_at
     AND NEW.undone_at IS NOT DISTINCT FROM OLD.undone_at THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- A deleted check (its person deleted) is a departure too.
    r := OLD;
    op := 'out';
  ELSE
    r := NEW;
    op := CASE WHEN NEW.check_out_at IS NULL THEN 'in' ELSE 'out' END;
    IF TG_OP = 'UPDATE' THEN
      IF OLD.undone_at IS NULL AND NEW.undone_at IS NOT NULL THEN
        op := 'arrival_undone';
      ELSIF OLD.check_out_at IS NOT NULL AND NEW.check_out_at IS NULL THEN
        -- Only an undo reopens a closed check.
        op := 'departure_undone';
      END IF;
    END IF;
  END IF;
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'presence',
    'company_id', r.company_id,
    'person_id', CASE WHEN TG_TABLE_NAME = 'visitor_checks'
                      THEN to_jsonb(r)->>'visitor_id' ELSE to_jsonb(r)->>'qr_user_id' END,
    'table', CASE WHEN TG_TABLE_NAME = 'visitor_checks' THEN 'visitor' ELSE 'user' END,
    'op', op
  )::text);
  RETURN r;
END
$$;
