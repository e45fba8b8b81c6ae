CREATE TABLE "invitation_days" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"invitation_id" uuid NOT NULL,
	"day" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"host_user_id" uuid,
	"reason" text,
	"language" text DEFAULT 'fr' NOT NULL,
	"first_date" text NOT NULL,
	"time" text NOT NULL,
	"end_time" text NOT NULL,
	"rrule" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visit_requests" ADD COLUMN "invitation_id" uuid;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD COLUMN "here_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "details_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invitation_days" ADD CONSTRAINT "invitation_days_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitation_days" ADD CONSTRAINT "invitation_days_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_host_user_id_users_id_fk" FOREIGN KEY ("host_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_days_invitation_day_key" ON "invitation_days" USING btree ("invitation_id","day");--> statement-breakpoint
CREATE INDEX "invitation_days_company_starts_idx" ON "invitation_days" USING btree ("company_id","starts_at");--> statement-breakpoint
CREATE INDEX "invitations_company_host_idx" ON "invitations" USING btree ("company_id","host_user_id","created_at");--> statement-breakpoint
CREATE INDEX "invitations_site_idx" ON "invitations" USING btree ("site_id");--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_invitation_id_invitations_id_fk" FOREIGN KEY ("invitation_id") REFERENCES "public"."invitations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_requests_invitation_idx" ON "visit_requests" USING btree ("invitation_id");--> statement-breakpoint
-- An invited visitor checked in or out (issue 30): their host hears it on the live feed as
-- the invitation's news (a host does not read the on-site list, so they hear no 'presence').
CREATE OR REPLACE FUNCTION sesame_notify_invited_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_request uuid;
  v_invitation uuid;
  v_host uuid;
  v_company uuid;
  v_site uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.check_out_at IS NOT DISTINCT FROM OLD.check_out_at
     AND NEW.undone_at IS NOT DISTINCT FROM OLD.undone_at THEN
    RETURN NEW;
  END IF;
  SELECT r.id, i.id, i.host_user_id, i.company_id, i.site_id
    INTO v_request, v_invitation, v_host, v_company, v_site
    FROM visit_requests r JOIN invitations i ON i.id = r.invitation_id
   WHERE r.visitor_id = NEW.visitor_id
   LIMIT 1;
  IF v_invitation IS NOT NULL THEN
    PERFORM pg_notify('sesame_live', json_build_object(
      'type', 'invitation',
      'company_id', v_company,
      'site_id', v_site,
      'invitation_id', v_invitation,
      'request_id', v_request,
      'host_user_id', v_host,
      'op', 'checked'
    )::text);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_notify_invitation AFTER INSERT OR UPDATE ON visitor_checks
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_invited_check();
