-- Issue 16: the audit log is append-only. No statement may change an entry, and none may
-- delete one except the retention purge of old entries, which says so for its own
-- transaction (SET LOCAL sesame.audit_purge = 'on', audit/retention in retention.ts).
CREATE OR REPLACE FUNCTION sesame_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('sesame.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION sesame_audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION sesame_audit_append_only();
--> statement-breakpoint
-- Checks made or closed by hand (Validation manuelle, the on-site list's check-out) are
-- audited by the database in the same statement as the check: the code check is one SQL
-- statement with no transaction held around it (checkins/check-statement.ts).
-- TG_ARGV: the subject type and the column naming the person.
CREATE OR REPLACE FUNCTION sesame_audit_manual_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_events (id, company_id, actor_user_id, action, subject_type, subject_id, detail)
  VALUES (
    gen_random_uuid(), NEW.company_id,
    CASE WHEN TG_OP = 'INSERT' THEN NEW.check_in_by ELSE NEW.check_out_by END,
    CASE WHEN TG_OP = 'INSERT' THEN 'check.manual_in' ELSE 'check.manual_out' END,
    TG_ARGV[0], (to_jsonb(NEW) ->> TG_ARGV[1])::uuid,
    jsonb_build_object('checkId', NEW.id)
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_audit_manual_in AFTER INSERT ON visitor_checks
  FOR EACH ROW WHEN (NEW.check_in_method = 'manual')
  EXECUTE FUNCTION sesame_audit_manual_check('visitor', 'visitor_id');
--> statement-breakpoint
CREATE TRIGGER visitor_checks_audit_manual_out AFTER UPDATE OF check_out_at ON visitor_checks
  FOR EACH ROW WHEN (OLD.check_out_at IS NULL AND NEW.check_out_at IS NOT NULL AND NEW.check_out_method = 'manual')
  EXECUTE FUNCTION sesame_audit_manual_check('visitor', 'visitor_id');
--> statement-breakpoint
CREATE TRIGGER user_checks_audit_manual_in AFTER INSERT ON user_checks
  FOR EACH ROW WHEN (NEW.check_in_method = 'manual')
  EXECUTE FUNCTION sesame_audit_manual_check('qr_user', 'qr_user_id');
--> statement-breakpoint
CREATE TRIGGER user_checks_audit_manual_out AFTER UPDATE OF check_out_at ON user_checks
  FOR EACH ROW WHEN (OLD.check_out_at IS NULL AND NEW.check_out_at IS NOT NULL AND NEW.check_out_method = 'manual')
  EXECUTE FUNCTION sesame_audit_manual_check('qr_user', 'qr_user_id');
