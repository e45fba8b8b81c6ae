CREATE TABLE "badge_prints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"printed_by" uuid,
	"kiosk_id" uuid,
	"printer" text NOT NULL,
	"badge_size" text NOT NULL,
	"reprint" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kiosks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"name" text NOT NULL,
	"languages" text[] DEFAULT '{fr,en}'::text[] NOT NULL,
	"ask_photo" boolean DEFAULT false NOT NULL,
	"print_badge" boolean DEFAULT true NOT NULL,
	"idle_seconds" integer DEFAULT 60 NOT NULL,
	"host_wait_seconds" integer DEFAULT 180 NOT NULL,
	"badge_size" text DEFAULT '62x100' NOT NULL,
	"printer_url" text,
	"pairing_code_hash" text,
	"pairing_expires_at" timestamp with time zone,
	"token_hash" text,
	"paired_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_requests" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_requests" ADD COLUMN "kiosk_id" uuid;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "badge_printer_url" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "badge_size" text DEFAULT '62x100' NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD COLUMN "kiosk_id" uuid;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "photo_file_id" uuid;--> statement-breakpoint
ALTER TABLE "badge_prints" ADD CONSTRAINT "badge_prints_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_prints" ADD CONSTRAINT "badge_prints_request_id_visit_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."visit_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_prints" ADD CONSTRAINT "badge_prints_printed_by_users_id_fk" FOREIGN KEY ("printed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_prints" ADD CONSTRAINT "badge_prints_kiosk_id_kiosks_id_fk" FOREIGN KEY ("kiosk_id") REFERENCES "public"."kiosks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosks" ADD CONSTRAINT "kiosks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosks" ADD CONSTRAINT "kiosks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosks" ADD CONSTRAINT "kiosks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_prints_company_idx" ON "badge_prints" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "badge_prints_request_idx" ON "badge_prints" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "kiosks_company_idx" ON "kiosks" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kiosks_token_hash_key" ON "kiosks" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "kiosks_pairing_code_hash_key" ON "kiosks" USING btree ("pairing_code_hash");--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_kiosk_id_kiosks_id_fk" FOREIGN KEY ("kiosk_id") REFERENCES "public"."kiosks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD CONSTRAINT "visit_requests_kiosk_id_kiosks_id_fk" FOREIGN KEY ("kiosk_id") REFERENCES "public"."kiosks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitors" ADD CONSTRAINT "visitors_photo_file_id_files_id_fk" FOREIGN KEY ("photo_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_kiosk_key_idx" ON "scan_requests" USING btree ("kiosk_id","key") WHERE "scan_requests"."kiosk_id" is not null;--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_one_caller" CHECK (("scan_requests"."user_id" is null) <> ("scan_requests"."kiosk_id" is null));