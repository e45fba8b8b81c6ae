ALTER TABLE "mail_outbox" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'fr' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "arrival_mail" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "visit_requests" ADD COLUMN "decline_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_key" ON "mail_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "visit_requests_host_idx" ON "visit_requests" USING btree ("host_user_id");