-- Issue 28: a company has one or more sites (buildings). Every company gets one site from
-- its own address, in the zone it ran in (its `timezone`, set from the server's
-- APP_TIMEZONE when it was created), with its own day end and early arrivals; then every
-- request (its visitor), event, check and roll call moves to it, and those three settings
-- leave the company. Nothing is deleted: the columns are filled before they are required.
CREATE TABLE "sites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"city" text,
	"zipcode" text,
	"country" text,
	"timezone" text NOT NULL,
	"front_desk_email" text,
	"opens_at" text DEFAULT '00:00' NOT NULL,
	"day_end" text DEFAULT '23:59' NOT NULL,
	"arrival_early_minutes" integer DEFAULT 0 NOT NULL,
	"short_code" text,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "roll_calls_one_open_key";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "roll_calls" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "home_site_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "site_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "site_id" uuid;--> statement-breakpoint
INSERT INTO "sites" ("id", "company_id", "name", "address", "city", "zipcode", "country", "timezone",
                     "front_desk_email", "day_end", "arrival_early_minutes", "created_at")
  SELECT gen_random_uuid(), c.id, c.name, c.address, c.city, c.zipcode, c.country, c.timezone,
         c.email, c.day_end, c.arrival_early_minutes, c.created_at
    FROM "companies" c;--> statement-breakpoint
UPDATE "events" e SET "site_id" = s.id FROM "sites" s WHERE s.company_id = e.company_id;--> statement-breakpoint
UPDATE "visitors" v SET "site_id" = s.id FROM "sites" s WHERE s.company_id = v.company_id;--> statement-breakpoint
UPDATE "visitor_checks" k SET "site_id" = s.id FROM "sites" s WHERE s.company_id = k.company_id;--> statement-breakpoint
UPDATE "user_checks" k SET "site_id" = s.id FROM "sites" s WHERE s.company_id = k.company_id;--> statement-breakpoint
UPDATE "roll_calls" r SET "site_id" = s.id FROM "sites" s WHERE s.company_id = r.company_id;--> statement-breakpoint
UPDATE "users" u SET "home_site_id" = s.id FROM "sites" s WHERE s.company_id = u.company_id;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "visitor_checks" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "user_checks" ALTER COLUMN "site_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sites_company_idx" ON "sites" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_company_name_key" ON "sites" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "sites_company_short_code_key" ON "sites" USING btree ("company_id",upper("short_code")) WHERE "sites"."short_code" is not null;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_calls" ADD CONSTRAINT "roll_calls_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_home_site_id_sites_id_fk" FOREIGN KEY ("home_site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_site_created_idx" ON "events" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE INDEX "user_checks_site_open_idx" ON "user_checks" USING btree ("site_id","check_in_at") WHERE "user_checks"."check_out_at" is null and "user_checks"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "user_checks_site_in_idx" ON "user_checks" USING btree ("site_id","check_in_at");--> statement-breakpoint
CREATE INDEX "visitor_checks_site_open_idx" ON "visitor_checks" USING btree ("site_id","check_in_at") WHERE "visitor_checks"."check_out_at" is null and "visitor_checks"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "visitor_checks_site_in_idx" ON "visitor_checks" USING btree ("site_id","check_in_at");--> statement-breakpoint
CREATE INDEX "visitors_site_day_idx" ON "visitors" USING btree ("site_id","day_starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "roll_calls_one_open_key" ON "roll_calls" USING btree ("company_id",coalesce("site_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE "roll_calls"."ended_at" is null;--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "timezone";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "arrival_early_minutes";--> statement-breakpoint
ALTER TABLE "companies" DROP COLUMN "day_end";--> statement-breakpoint
-- The live feed names the site of each change, so a front-desk screen opened on one site
-- hears that site only (on-site/live.ts); the rest of each payload is as before.
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
    'site_id', r.site_id,
    'person_id', CASE WHEN TG_TABLE_NAME = 'visitor_checks'
                      THEN to_jsonb(r)->>'visitor_id' ELSE to_jsonb(r)->>'qr_user_id' END,
    'table', CASE WHEN TG_TABLE_NAME = 'visitor_checks' THEN 'visitor' ELSE 'user' END,
    'op', op
  )::text);
  RETURN r;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_notify_request() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  site uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.confirmed IS NOT DISTINCT FROM OLD.confirmed
     AND NEW.status IS NOT DISTINCT FROM OLD.status THEN
    RETURN NEW;
  END IF;
  SELECT v.site_id INTO site FROM visitors v WHERE v.id = NEW.visitor_id;
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'request',
    'company_id', NEW.company_id,
    'site_id', site,
    'request_id', NEW.id,
    'op', CASE WHEN TG_OP = 'INSERT' THEN 'created' ELSE 'updated' END
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_notify_roll_call() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  company uuid;
  site uuid;
  roll_call uuid;
  op text;
BEGIN
  IF TG_TABLE_NAME = 'roll_calls' THEN
    IF TG_OP = 'UPDATE' AND NEW.ended_at IS NOT DISTINCT FROM OLD.ended_at THEN
      RETURN NEW;
    END IF;
    company := NEW.company_id;
    site := NEW.site_id;
    roll_call := NEW.id;
    op := CASE WHEN TG_OP = 'INSERT' THEN 'started' ELSE 'ended' END;
  ELSE
    IF NEW.status IS NOT DISTINCT FROM OLD.status THEN
      RETURN NEW;
    END IF;
    SELECT rc.company_id, rc.site_id INTO company, site FROM roll_calls rc WHERE rc.id = NEW.roll_call_id;
    roll_call := NEW.roll_call_id;
    op := 'marked';
  END IF;
  -- A roll call of every site (site_id null) is heard on every site's screens.
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'rollCall',
    'company_id', company,
    'site_id', site,
    'roll_call_id', roll_call,
    'op', op
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- The sites a person is limited to are part of their access: narrowing them ends their
-- open live streams at once (on-site/live.ts), as a role change does.
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
     OR NEW.password_hash IS DISTINCT FROM OLD.password_hash
     OR NEW.site_ids IS DISTINCT FROM OLD.site_ids THEN
    PERFORM pg_notify('sesame_session', json_build_object('user_id', NEW.id)::text);
  END IF;
  RETURN NEW;
END
$$;
