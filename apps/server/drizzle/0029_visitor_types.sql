CREATE TABLE "document_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title_fr" text NOT NULL,
	"title_en" text NOT NULL,
	"body_fr" text NOT NULL,
	"body_en" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signatures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"document_id" uuid,
	"document_version_id" uuid,
	"visitor_id" uuid,
	"version" integer NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"signer_name" text NOT NULL,
	"signer_email" text DEFAULT '' NOT NULL,
	"method" text NOT NULL,
	"image_png" text,
	"signed_at" timestamp with time zone NOT NULL,
	"hash" text NOT NULL,
	"pdf_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_type_documents" (
	"company_id" uuid NOT NULL,
	"visitor_type_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"validity" text DEFAULT 'visit' NOT NULL,
	"validity_days" integer,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "visitor_type_documents_visitor_type_id_document_id_pk" PRIMARY KEY("visitor_type_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "visitor_types" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"name_fr" text NOT NULL,
	"name_en" text NOT NULL,
	"color" text NOT NULL,
	"required_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"host_approval" boolean DEFAULT true NOT NULL,
	"auto_check_out_at" text,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watchlist_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"firstname" text DEFAULT '' NOT NULL,
	"lastname" text DEFAULT '' NOT NULL,
	"email" text,
	"phone" text,
	"id_number" text,
	"reason" text NOT NULL,
	"until" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watchlist_holds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"entry_id" uuid,
	"visitor_id" uuid,
	"request_id" uuid,
	"source" text NOT NULL,
	"matched_on" text NOT NULL,
	"similarity" real,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_signatures_days" integer DEFAULT 1095 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_signatures_pending_days" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_signatures_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "watchlist_name_threshold" real DEFAULT 0.6 NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "visitor_type_id" uuid;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "security_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "visitor_type_id" uuid;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_document_id_site_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."site_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_document_id_site_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."site_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_document_version_id_document_versions_id_fk" FOREIGN KEY ("document_version_id") REFERENCES "public"."document_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signatures" ADD CONSTRAINT "signatures_pdf_file_id_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_documents" ADD CONSTRAINT "site_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_documents" ADD CONSTRAINT "site_documents_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_type_documents" ADD CONSTRAINT "visitor_type_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_type_documents" ADD CONSTRAINT "visitor_type_documents_visitor_type_id_visitor_types_id_fk" FOREIGN KEY ("visitor_type_id") REFERENCES "public"."visitor_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_type_documents" ADD CONSTRAINT "visitor_type_documents_document_id_site_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."site_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_types" ADD CONSTRAINT "visitor_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_types" ADD CONSTRAINT "visitor_types_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD CONSTRAINT "watchlist_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD CONSTRAINT "watchlist_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_entry_id_watchlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."watchlist_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_request_id_visit_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."visit_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watchlist_holds" ADD CONSTRAINT "watchlist_holds_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_versions_document_version_key" ON "document_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE INDEX "signatures_company_signed_idx" ON "signatures" USING btree ("company_id","signed_at");--> statement-breakpoint
CREATE INDEX "signatures_visitor_idx" ON "signatures" USING btree ("visitor_id");--> statement-breakpoint
CREATE INDEX "signatures_signer_idx" ON "signatures" USING btree ("company_id","signer_email","document_id","signed_at");--> statement-breakpoint
CREATE INDEX "site_documents_company_site_idx" ON "site_documents" USING btree ("company_id","site_id");--> statement-breakpoint
CREATE INDEX "visitor_types_company_site_idx" ON "visitor_types" USING btree ("company_id","site_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_types_site_name_key" ON "visitor_types" USING btree ("site_id",lower("name_fr"));--> statement-breakpoint
CREATE INDEX "watchlist_company_idx" ON "watchlist_entries" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "watchlist_email_idx" ON "watchlist_entries" USING btree ("company_id","email") WHERE "watchlist_entries"."email" is not null;--> statement-breakpoint
CREATE INDEX "watchlist_phone_idx" ON "watchlist_entries" USING btree ("company_id","phone") WHERE "watchlist_entries"."phone" is not null;--> statement-breakpoint
CREATE INDEX "watchlist_id_number_idx" ON "watchlist_entries" USING btree ("company_id",upper("id_number")) WHERE "watchlist_entries"."id_number" is not null;--> statement-breakpoint
CREATE INDEX "watchlist_name_trgm_idx" ON "watchlist_entries" USING gin ((sesame_fold("firstname" || ' ' || "lastname")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "watchlist_holds_company_idx" ON "watchlist_holds" USING btree ("company_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "watchlist_holds_visitor_pending_key" ON "watchlist_holds" USING btree ("visitor_id") WHERE "watchlist_holds"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "watchlist_holds_visitor_idx" ON "watchlist_holds" USING btree ("visitor_id","status");--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_visitor_type_id_visitor_types_id_fk" FOREIGN KEY ("visitor_type_id") REFERENCES "public"."visitor_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_visitor_type_id_visitor_types_id_fk" FOREIGN KEY ("visitor_type_id") REFERENCES "public"."visitor_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_signatures_pending_check" CHECK (("companies"."retention_signatures_pending_days" is null) = ("companies"."retention_signatures_pending_at" is null));--> statement-breakpoint
-- Every site starts with the four default visitor types (issue 31; new sites get them from
-- visitor-types/defaults.ts, the same list). The spec's visitor form asked every field: the
-- default 'Visiteur' type asks the same, so nothing changes for a site that adds no type.
INSERT INTO "visitor_types" ("id", "company_id", "site_id", "name_fr", "name_en", "color", "required_fields", "host_approval", "position")
SELECT gen_random_uuid(), s.company_id, s.id, d.name_fr, d.name_en, d.color, d.required_fields, d.host_approval, d.position
  FROM "sites" s
  CROSS JOIN (VALUES
    ('Visiteur', 'Visitor', '#1971C2', '{organisation,phone,id_number,id_document}'::text[], true, 0),
    ('Prestataire', 'Contractor', '#E8590C', '{organisation,phone,id_number,id_document}'::text[], true, 1),
    ('Entretien d''embauche', 'Job interview', '#2F9E44', '{phone}'::text[], true, 2),
    ('Livraison', 'Delivery', '#868E96', '{organisation}'::text[], false, 3)
  ) AS d(name_fr, name_en, color, required_fields, host_approval, position);
--> statement-breakpoint
-- A visit held by the watchlist, or its review decided: the reviewers' screens hear it live
-- (type 'watchlist'; live.ts's `hears` gives it to watchlist.review only).
CREATE OR REPLACE FUNCTION sesame_notify_watchlist_hold() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'watchlist',
    'company_id', NEW.company_id,
    'site_id', NEW.site_id,
    'hold_id', NEW.id,
    'op', CASE WHEN TG_OP = 'INSERT' THEN 'held' ELSE 'decided' END
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER watchlist_holds_notify AFTER INSERT OR UPDATE OF status ON watchlist_holds
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_watchlist_hold();
--> statement-breakpoint
-- The watchlist's name index answers every scan: entries added in bulk must be in the index
-- itself, not in a GIN pending list that each lookup reads through until the next vacuum.
ALTER INDEX "watchlist_name_trgm_idx" SET (fastupdate = off);
