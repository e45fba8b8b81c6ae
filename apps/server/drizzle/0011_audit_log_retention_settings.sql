CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" uuid,
	"detail" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_daily_counts" (
	"company_id" uuid NOT NULL,
	"day" text NOT NULL,
	"kind" text NOT NULL,
	"checks" integer NOT NULL,
	CONSTRAINT "check_daily_counts_company_id_day_kind_pk" PRIMARY KEY("company_id","day","kind")
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"day" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_documents_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_identity_days" integer DEFAULT 365 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_checks_days" integer DEFAULT 730 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_audit_days" integer DEFAULT 1095 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "privacy_notice" text;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "anonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_daily_counts" ADD CONSTRAINT "check_daily_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_company_at_idx" ON "audit_events" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_user_id","at");--> statement-breakpoint
CREATE INDEX "visitors_request_image_idx" ON "visitors" USING btree ("request_image_id");