CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"logo_file_id" uuid,
	"description" text,
	"number_of_employee" text,
	"email" text,
	"phone_number" text,
	"id_number" text,
	"point_contact" text,
	"company_field" text,
	"country" text,
	"city" text,
	"state" text,
	"title" text,
	"address" text,
	"zipcode" text,
	"timezone" text DEFAULT 'Africa/Abidjan' NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"location" text NOT NULL,
	"address_name" text NOT NULL,
	"city" text,
	"state" text,
	"zipcode" text,
	"country" text,
	"date_event" text NOT NULL,
	"time_event" text NOT NULL,
	"starts_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"departement_id" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" uuid,
	"stored_name" text NOT NULL,
	"original_name" text,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qr_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"uidn" text NOT NULL,
	"firstname" text,
	"lastname" text,
	"email" text,
	"contact" text,
	"title" text,
	"type" text DEFAULT 'permanent' NOT NULL,
	"date_exp" timestamp with time zone,
	"document_id" uuid,
	"revoked_at" timestamp with time zone,
	"replaced_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"check_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"check_out_at" timestamp with time zone,
	"check_in_method" text NOT NULL,
	"check_out_method" text,
	"check_in_by" uuid,
	"check_out_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"qr_user_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"firstname" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"title" text,
	"contact" text,
	"roles" text[] DEFAULT ARRAY['ROLE_USER']::text[] NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"department_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"visitor_id" uuid NOT NULL,
	"host_user_id" uuid,
	"host" text,
	"reason" text,
	"status" integer,
	"confirmed" boolean,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitor_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"check_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"check_out_at" timestamp with time zone,
	"check_in_method" text NOT NULL,
	"check_out_method" text,
	"check_in_by" uuid,
	"check_out_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"visitor_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"event_id" uuid,
	"uidn" text NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"email" text NOT NULL,
	"contact" text NOT NULL,
	"id_number" text NOT NULL,
	"organisation_name" text NOT NULL,
	"address" text,
	"city" text,
	"state" text,
	"country" text,
	"zipcode" text,
	"visitor_type" text,
	"request_date" text,
	"request_time" text,
	"language" text DEFAULT 'fr' NOT NULL,
	"request_image_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_users" ADD CONSTRAINT "qr_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_users" ADD CONSTRAINT "qr_users_document_id_files_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_users" ADD CONSTRAINT "qr_users_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_check_in_by_users_id_fk" FOREIGN KEY ("check_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_check_out_by_users_id_fk" FOREIGN KEY ("check_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_qr_user_id_qr_users_id_fk" FOREIGN KEY ("qr_user_id") REFERENCES "public"."qr_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_host_user_id_users_id_fk" FOREIGN KEY ("host_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_check_in_by_users_id_fk" FOREIGN KEY ("check_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_check_out_by_users_id_fk" FOREIGN KEY ("check_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_visitor_id_visitors_id_fk" FOREIGN KEY ("visitor_id") REFERENCES "public"."visitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_request_image_id_files_id_fk" FOREIGN KEY ("request_image_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_slug_key" ON "companies" USING btree (lower("slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "events_company_slug_key" ON "events" USING btree ("company_id","slug");--> statement-breakpoint
CREATE INDEX "events_company_created_idx" ON "events" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "files_company_owner_idx" ON "files" USING btree ("company_id","owner_type","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "files_stored_name_key" ON "files" USING btree ("stored_name");--> statement-breakpoint
CREATE INDEX "mail_outbox_company_idx" ON "mail_outbox" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "qr_users_uidn_key" ON "qr_users" USING btree ("uidn");--> statement-breakpoint
CREATE INDEX "qr_users_company_kind_idx" ON "qr_users" USING btree ("company_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "qr_users_company_email_idx" ON "qr_users" USING btree ("company_id",lower("email"));--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_checks_one_open_key" ON "user_checks" USING btree ("qr_user_id") WHERE "user_checks"."check_out_at" is null;--> statement-breakpoint
CREATE INDEX "user_checks_company_in_idx" ON "user_checks" USING btree ("company_id","check_in_at");--> statement-breakpoint
CREATE INDEX "user_checks_qr_user_idx" ON "user_checks" USING btree ("qr_user_id","check_in_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_company_idx" ON "users" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "visit_requests_company_created_idx" ON "visit_requests" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "visit_requests_visitor_idx" ON "visit_requests" USING btree ("visitor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_checks_one_open_key" ON "visitor_checks" USING btree ("visitor_id") WHERE "visitor_checks"."check_out_at" is null;--> statement-breakpoint
CREATE INDEX "visitor_checks_company_in_idx" ON "visitor_checks" USING btree ("company_id","check_in_at");--> statement-breakpoint
CREATE INDEX "visitor_checks_visitor_idx" ON "visitor_checks" USING btree ("visitor_id","check_in_at");--> statement-breakpoint
CREATE UNIQUE INDEX "visitors_uidn_key" ON "visitors" USING btree ("uidn");--> statement-breakpoint
CREATE INDEX "visitors_company_created_idx" ON "visitors" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "visitors_company_event_idx" ON "visitors" USING btree ("company_id","event_id");