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
CREATE INDEX "visit_requests_invitation_idx" ON "visit_requests" USING btree ("invitation_id");