-- Issue 26 §4: a live screen's stream (GET /api/live) ends as soon as its session ends or
-- its person's rights change, on every server instance. The database announces it on the
-- channel 'sesame_session', in the same transaction as the change and whatever code path
-- made it (logout, a new password, a disabled account, a role or company change, a deleted
-- account); each instance's LISTEN connection hears it (on-site/live.ts) and ends the
-- matching streams. Only ids travel.
CREATE OR REPLACE FUNCTION sesame_notify_session_end() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sesame_session', json_build_object(
    'user_id', NEW.user_id,
    'session_id', NEW.id
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify_end AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION sesame_notify_session_end();
--> statement-breakpoint
-- Every session of the person: what a stream was allowed to hear (the active role, the
-- company) may have changed, or the account no longer signs in. A deleted account's
-- sessions go with it (ON DELETE CASCADE), announced here once.
CREATE OR REPLACE FUNCTION sesame_notify_user_access() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('sesame_session', json_build_object('user_id', OLD.id)::text);
    RETURN OLD;
  END IF;
  IF NEW.roles IS DISTINCT FROM OLD.roles
     OR NEW.status IS DISTINCT FROM OLD.status
     OR NEW.company_id IS DISTINCT FROM OLD.company_id
     OR NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN
    PERFORM pg_notify('sesame_session', json_build_object('user_id', NEW.id)::text);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_notify_access AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_user_access();
