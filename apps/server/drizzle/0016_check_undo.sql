DROP INDEX "user_checks_one_open_key";--> statement-breakpoint
DROP INDEX "user_checks_open_idx";--> statement-breakpoint
DROP INDEX "visitor_checks_one_open_key";--> statement-breakpoint
DROP INDEX "visitor_checks_open_idx";--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undone_by" uuid;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undo_reason" text;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undone_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undone_out_method" text;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "undone_out_by" uuid;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "out_undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "out_undone_by" uuid;--> statement-breakpoint
ALTER TABLE "user_checks" ADD COLUMN "out_undo_reason" text;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undone_by" uuid;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undo_reason" text;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undone_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undone_out_method" text;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "undone_out_by" uuid;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "out_undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "out_undone_by" uuid;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD COLUMN "out_undo_reason" text;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_undone_out_by_users_id_fk" FOREIGN KEY ("undone_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_checks" ADD CONSTRAINT "user_checks_out_undone_by_users_id_fk" FOREIGN KEY ("out_undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_undone_out_by_users_id_fk" FOREIGN KEY ("undone_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visitor_checks" ADD CONSTRAINT "visitor_checks_out_undone_by_users_id_fk" FOREIGN KEY ("out_undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_checks_one_open_key" ON "user_checks" USING btree ("qr_user_id") WHERE "user_checks"."check_out_at" is null and "user_checks"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "user_checks_open_idx" ON "user_checks" USING btree ("company_id","check_in_at") WHERE "user_checks"."check_out_at" is null and "user_checks"."undone_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "visitor_checks_one_open_key" ON "visitor_checks" USING btree ("visitor_id") WHERE "visitor_checks"."check_out_at" is null and "visitor_checks"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "visitor_checks_open_idx" ON "visitor_checks" USING btree ("company_id","check_in_at") WHERE "visitor_checks"."check_out_at" is null and "visitor_checks"."undone_at" is null;