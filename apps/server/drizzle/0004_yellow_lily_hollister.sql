CREATE TABLE "scan_requests" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_requests" ADD CONSTRAINT "scan_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scan_requests_user_key_idx" ON "scan_requests" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "scan_requests_created_idx" ON "scan_requests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_visitor_idx" ON "mail_outbox" USING btree (("payload"->>'visitorId'));