CREATE TABLE "dashboard_company_days" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"peak" integer NOT NULL,
	CONSTRAINT "dashboard_company_days_company_id_day_pk" PRIMARY KEY("company_id","day")
);
--> statement-breakpoint
CREATE TABLE "dashboard_days" (
	"site_id" uuid NOT NULL,
	"day" date NOT NULL,
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "dashboard_days_site_id_figure_day_key_pk" PRIMARY KEY("site_id","figure","day","key")
);
--> statement-breakpoint
CREATE TABLE "dashboard_summaries" (
	"site_id" uuid NOT NULL,
	"day" date NOT NULL,
	"summarized_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_summaries_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
ALTER TABLE "dashboard_company_days" ADD CONSTRAINT "dashboard_company_days_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_days" ADD CONSTRAINT "dashboard_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_summaries" ADD CONSTRAINT "dashboard_summaries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 35: a summarized day stays right. Any change to a row that a settled day's figures
-- read (a check, a visitor, a request, an invitation's day, a site's zone) deletes the
-- marks of the days it may fall on: the day of its instant in UTC and the one either side
-- (every zone is within 14 hours of UTC), for its site and the company's peak. The day is
-- then read from the checks until the sweep summarizes it anew. Only rows older than the
-- settled horizon (8 days, DASHBOARD_SETTLED_DAYS in dashboard/summary.ts) can touch a
-- summarized day: the row triggers' WHEN leaves every other change (a desk's check-in and
-- check-out) without even a function call.
-- The shared lock waits for a summary of the company being written (it holds the lock
-- exclusively, dashboard/summary.ts), which then cannot miss this change: its statement's
-- snapshot is taken once every change that deleted marks has committed.
CREATE OR REPLACE FUNCTION sesame_dashboard_stale_day(p_site uuid, p_day date)
RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock_shared(35, hashtext(company_id::text)) FROM sites WHERE id = p_site;
  DELETE FROM dashboard_summaries
   WHERE site_id = p_site AND day BETWEEN p_day - 1 AND p_day + 1;
  DELETE FROM dashboard_company_days
   WHERE company_id = (SELECT company_id FROM sites WHERE id = p_site)
     AND day BETWEEN p_day - 1 AND p_day + 1;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_stale(p_site uuid, p_at timestamptz)
RETURNS void LANGUAGE sql AS $$
  SELECT sesame_dashboard_stale_day(p_site, (p_at AT TIME ZONE 'UTC')::date) WHERE p_at IS NOT NULL;
$$;
--> statement-breakpoint
-- Where a row's site is gone with it (a cascade), every site of its company.
CREATE OR REPLACE FUNCTION sesame_dashboard_stale_company(p_company uuid, p_at timestamptz)
RETURNS void LANGUAGE sql AS $$
  SELECT sesame_dashboard_stale(s.id, p_at) FROM sites s WHERE s.company_id = p_company;
$$;
--> statement-breakpoint
-- A visitor's days: the day they were due, and each day they arrived (its type, its host).
CREATE OR REPLACE FUNCTION sesame_dashboard_stale_visitor(p_visitor uuid)
RETURNS void LANGUAGE sql AS $$
  SELECT sesame_dashboard_stale(v.site_id, v.day_starts_at) FROM visitors v WHERE v.id = p_visitor;
  SELECT sesame_dashboard_stale(c.site_id, c.check_in_at) FROM visitor_checks c
   WHERE c.visitor_id = p_visitor AND c.check_in_at < now() - interval '8 days';
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_check_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM sesame_dashboard_stale(OLD.site_id, OLD.check_in_at);
    PERFORM sesame_dashboard_stale(OLD.site_id, OLD.check_out_at);
  END IF;
  PERFORM sesame_dashboard_stale(NEW.site_id, NEW.check_in_at);
  PERFORM sesame_dashboard_stale(NEW.site_id, NEW.check_out_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_dashboard_insert AFTER INSERT ON visitor_checks FOR EACH ROW
  WHEN (NEW.check_in_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_check_changed();
--> statement-breakpoint
CREATE TRIGGER visitor_checks_dashboard_update AFTER UPDATE ON visitor_checks FOR EACH ROW
  WHEN (OLD.check_in_at < now() - interval '8 days' OR NEW.check_in_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_check_changed();
--> statement-breakpoint
-- Deletions (the retention purge, an erasure) come by thousands: once per statement.
CREATE OR REPLACE FUNCTION sesame_dashboard_checks_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale_day(g.site_id, g.day)
     FROM (SELECT DISTINCT site_id, (at AT TIME ZONE 'UTC')::date AS day
             FROM gone, LATERAL (VALUES (check_in_at), (check_out_at)) a(at)
            WHERE check_in_at < now() - interval '8 days' AND at IS NOT NULL) g;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_dashboard_delete AFTER DELETE ON visitor_checks
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION sesame_dashboard_checks_deleted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_visitor_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale(OLD.site_id, OLD.day_starts_at);
  PERFORM sesame_dashboard_stale_visitor(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_visitor_added() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale(NEW.site_id, NEW.day_starts_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visitors_dashboard_insert AFTER INSERT ON visitors FOR EACH ROW
  WHEN (NEW.day_starts_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_visitor_added();
--> statement-breakpoint
CREATE TRIGGER visitors_dashboard_update AFTER UPDATE ON visitors FOR EACH ROW
  WHEN (OLD.visitor_type_id IS DISTINCT FROM NEW.visitor_type_id
        OR OLD.visitor_type IS DISTINCT FROM NEW.visitor_type
        OR OLD.site_id IS DISTINCT FROM NEW.site_id
        OR OLD.event_id IS DISTINCT FROM NEW.event_id
        OR OLD.day_starts_at IS DISTINCT FROM NEW.day_starts_at
        OR OLD.day_ends_at IS DISTINCT FROM NEW.day_ends_at)
  EXECUTE FUNCTION sesame_dashboard_visitor_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_visitors_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale_day(g.site_id, g.day)
     FROM (SELECT DISTINCT site_id, (day_starts_at AT TIME ZONE 'UTC')::date AS day FROM gone
            WHERE day_starts_at < now() - interval '8 days') g;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visitors_dashboard_delete AFTER DELETE ON visitors
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION sesame_dashboard_visitors_deleted();
--> statement-breakpoint
-- A request's day (its answer's time), its visitor's days (who the host was, whether they
-- were due) and its invitation's days (whether they were due).
CREATE OR REPLACE FUNCTION sesame_dashboard_request_changed(r visit_requests)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM visitors WHERE id = r.visitor_id) THEN
    PERFORM sesame_dashboard_stale(v.site_id, r.created_at) FROM visitors v WHERE v.id = r.visitor_id;
    PERFORM sesame_dashboard_stale_visitor(r.visitor_id);
  ELSE
    PERFORM sesame_dashboard_stale_company(r.company_id, r.created_at);
  END IF;
  PERFORM sesame_dashboard_stale(i.site_id, d.starts_at)
     FROM invitation_days d JOIN invitations i ON i.id = d.invitation_id
    WHERE d.invitation_id = r.invitation_id AND d.starts_at < now() - interval '8 days';
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_request_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_request_changed(OLD);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visit_requests_dashboard_update AFTER UPDATE ON visit_requests FOR EACH ROW
  WHEN (OLD.created_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_request_row();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_requests_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Their visitors are gone too (the only way a request is deleted): the checks' and the
  -- visitors' own triggers take their days; here, the answers' days and invitations' days.
  PERFORM sesame_dashboard_stale_day(s.id, g.day)
     FROM (SELECT DISTINCT company_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM gone
            WHERE created_at < now() - interval '8 days') g
     JOIN sites s ON s.company_id = g.company_id;
  PERFORM sesame_dashboard_stale_day(g.site_id, g.day)
     FROM (SELECT DISTINCT i.site_id, (d.starts_at AT TIME ZONE 'UTC')::date AS day
             FROM invitation_days d JOIN invitations i ON i.id = d.invitation_id
            WHERE d.invitation_id IN (SELECT invitation_id FROM gone)
              AND d.starts_at < now() - interval '8 days') g;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER visit_requests_dashboard_delete AFTER DELETE ON visit_requests
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
  EXECUTE FUNCTION sesame_dashboard_requests_deleted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_invitation_day_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM invitations WHERE id = OLD.invitation_id) THEN
    PERFORM sesame_dashboard_stale(i.site_id, OLD.starts_at) FROM invitations i WHERE i.id = OLD.invitation_id;
  ELSE
    PERFORM sesame_dashboard_stale_company(OLD.company_id, OLD.starts_at);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invitation_days_dashboard_change AFTER UPDATE OR DELETE ON invitation_days FOR EACH ROW
  WHEN (OLD.starts_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_invitation_day_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_invitation_day_added() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale(i.site_id, NEW.starts_at) FROM invitations i WHERE i.id = NEW.invitation_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invitation_days_dashboard_insert AFTER INSERT ON invitation_days FOR EACH ROW
  WHEN (NEW.starts_at < now() - interval '8 days')
  EXECUTE FUNCTION sesame_dashboard_invitation_day_added();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_invitation_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sesame_dashboard_stale(s.site, d.starts_at)
     FROM invitation_days d, (VALUES (OLD.site_id), (NEW.site_id)) s(site)
    WHERE d.invitation_id = NEW.id AND d.starts_at < now() - interval '8 days';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER invitations_dashboard_update AFTER UPDATE ON invitations FOR EACH ROW
  WHEN (OLD.cancelled_at IS DISTINCT FROM NEW.cancelled_at OR OLD.site_id IS DISTINCT FROM NEW.site_id)
  EXECUTE FUNCTION sesame_dashboard_invitation_changed();
--> statement-breakpoint
-- A site's zone or early-arrival margin changes what every one of its days counts.
CREATE OR REPLACE FUNCTION sesame_dashboard_site_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_summaries WHERE site_id = NEW.id;
  DELETE FROM dashboard_company_days WHERE company_id = NEW.company_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_dashboard_update AFTER UPDATE ON sites FOR EACH ROW
  WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone
        OR OLD.arrival_early_minutes IS DISTINCT FROM NEW.arrival_early_minutes)
  EXECUTE FUNCTION sesame_dashboard_site_changed();
