CREATE TABLE "weekly_reports_sent" (
	"user_id" uuid NOT NULL,
	"week" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_reports_sent_user_id_week_pk" PRIMARY KEY("user_id","week")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_report" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_report_site_id" uuid;--> statement-breakpoint
ALTER TABLE "weekly_reports_sent" ADD CONSTRAINT "weekly_reports_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_weekly_report_site_id_sites_id_fk" FOREIGN KEY ("weekly_report_site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;