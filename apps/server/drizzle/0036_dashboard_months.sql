CREATE TABLE "dashboard_all_sites_days" (
	"company_id" uuid NOT NULL,
	"day" date NOT NULL,
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "dashboard_all_sites_days_company_id_figure_day_key_pk" PRIMARY KEY("company_id","figure","day","key")
);
--> statement-breakpoint
CREATE TABLE "dashboard_month_summaries" (
	"company_id" uuid NOT NULL,
	"scope_id" uuid NOT NULL,
	"month" date NOT NULL,
	"summarized_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_month_summaries_scope_id_month_pk" PRIMARY KEY("scope_id","month")
);
--> statement-breakpoint
CREATE TABLE "dashboard_months" (
	"company_id" uuid NOT NULL,
	"scope_id" uuid NOT NULL,
	"month" date NOT NULL,
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "dashboard_months_scope_id_figure_month_key_pk" PRIMARY KEY("scope_id","figure","month","key")
);
--> statement-breakpoint
ALTER TABLE "dashboard_all_sites_days" ADD CONSTRAINT "dashboard_all_sites_days_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_month_summaries" ADD CONSTRAINT "dashboard_month_summaries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_months" ADD CONSTRAINT "dashboard_months_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Issue 35: a month's summary (dashboard/summary.ts) stands only while every day of it
-- does. A late change deletes the marks of the days it may fall on (0035); it now deletes
-- those days' months' marks too, the site's and its company's.
CREATE OR REPLACE FUNCTION sesame_dashboard_stale_day(p_site uuid, p_day date)
RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock_shared(35, hashtext(company_id::text)) FROM sites WHERE id = p_site;
  DELETE FROM dashboard_summaries
   WHERE site_id = p_site AND day BETWEEN p_day - 1 AND p_day + 1;
  DELETE FROM dashboard_company_days
   WHERE company_id = (SELECT company_id FROM sites WHERE id = p_site)
     AND day BETWEEN p_day - 1 AND p_day + 1;
  DELETE FROM dashboard_month_summaries
   WHERE scope_id IN (p_site, (SELECT company_id FROM sites WHERE id = p_site))
     AND month BETWEEN date_trunc('month', p_day - 1)::date AND date_trunc('month', p_day + 1)::date;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_dashboard_site_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_summaries WHERE site_id = NEW.id;
  DELETE FROM dashboard_company_days WHERE company_id = NEW.company_id;
  DELETE FROM dashboard_month_summaries WHERE scope_id IN (NEW.id, NEW.company_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A site deleted (one nothing ever happened at, sites/service.ts) takes its months with it;
-- its company's months no longer count the same sites.
CREATE OR REPLACE FUNCTION sesame_dashboard_site_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_months WHERE scope_id = OLD.id;
  DELETE FROM dashboard_month_summaries WHERE scope_id IN (OLD.id, OLD.company_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_dashboard_delete AFTER DELETE ON sites FOR EACH ROW
  EXECUTE FUNCTION sesame_dashboard_site_deleted();
