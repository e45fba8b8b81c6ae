-- Issue 14: every check made or closed, and every meeting request filed or decided,
-- is announced by the database itself on the channel 'sesame_live', whatever code
-- path wrote it and whichever server instance did: each instance LISTENs once and
-- forwards to its live screens (on-site/live.ts). Only ids travel; screens refetch.
CREATE OR REPLACE FUNCTION sesame_notify_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.check_out_at IS NOT DISTINCT FROM OLD.check_out_at THEN
    RETURN NEW;
  END IF;
  -- A deleted check (its person deleted) is a departure too.
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'presence',
    'company_id', r.company_id,
    'person_id', CASE WHEN TG_TABLE_NAME = 'visitor_checks'
                      THEN to_jsonb(r)->>'visitor_id' ELSE to_jsonb(r)->>'qr_user_id' END,
    'table', CASE WHEN TG_TABLE_NAME = 'visitor_checks' THEN 'visitor' ELSE 'user' END,
    'op', CASE WHEN TG_OP <> 'DELETE' AND r.check_out_at IS NULL THEN 'in' ELSE 'out' END
  )::text);
  RETURN r;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_notify AFTER INSERT OR UPDATE OR DELETE ON visitor_checks
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_check();
--> statement-breakpoint
CREATE TRIGGER user_checks_notify AFTER INSERT OR UPDATE OR DELETE ON user_checks
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_check();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_notify_request() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.confirmed IS NOT DISTINCT FROM OLD.confirmed
     AND NEW.status IS NOT DISTINCT FROM OLD.status THEN
    RETURN NEW;
  END IF;
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'request',
    'company_id', NEW.company_id,
    'request_id', NEW.id,
    'op', CASE WHEN TG_OP = 'INSERT' THEN 'created' ELSE 'updated' END
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visit_requests_notify AFTER INSERT OR UPDATE ON visit_requests
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_request();
