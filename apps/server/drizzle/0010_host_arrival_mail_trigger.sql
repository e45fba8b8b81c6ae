-- Issue 15: the host's arrival mail is queued by the database itself when their
-- visitor checks in, in the same transaction as the check (the code check is one
-- SQL statement, checkins/check-statement.ts). Only for a confirmed meeting whose
-- host has an account that is active and has not turned arrival mails off. The
-- dedupe key makes it one mail per check. The worker renders it in the host's language.
CREATE OR REPLACE FUNCTION sesame_queue_arrival_mail() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO mail_outbox (id, company_id, kind, to_address, payload, dedupe_key)
  SELECT gen_random_uuid(), NEW.company_id, 'host_arrival', u.email,
         jsonb_build_object('visitorId', NEW.visitor_id, 'checkId', NEW.id, 'userId', u.id),
         'host_arrival:' || NEW.id
  FROM visit_requests r
  JOIN users u ON u.id = r.host_user_id
  WHERE r.visitor_id = NEW.visitor_id
    AND r.company_id = NEW.company_id
    AND r.confirmed IS TRUE
    AND u.status
    AND u.arrival_mail
  ORDER BY r.created_at DESC
  LIMIT 1
  ON CONFLICT (dedupe_key) DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_arrival_mail AFTER INSERT ON visitor_checks
  FOR EACH ROW EXECUTE FUNCTION sesame_queue_arrival_mail();
