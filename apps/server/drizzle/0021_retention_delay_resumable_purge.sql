-- Issue 26: a shortened retention period waits for its date (the pending days and the
-- instant they apply, both set or both null); the daily purge's run keeps a heartbeat, so a
-- run whose process was killed is taken over the same day, and counts its attempts.
ALTER TABLE "companies" ADD COLUMN "retention_documents_pending_days" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_documents_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_identity_pending_days" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_identity_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_checks_pending_days" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_checks_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_audit_pending_days" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_audit_pending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retention_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retention_runs" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_documents_pending_check" CHECK (("companies"."retention_documents_pending_days" is null) = ("companies"."retention_documents_pending_at" is null));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_identity_pending_check" CHECK (("companies"."retention_identity_pending_days" is null) = ("companies"."retention_identity_pending_at" is null));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_checks_pending_check" CHECK (("companies"."retention_checks_pending_days" is null) = ("companies"."retention_checks_pending_at" is null));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_retention_audit_pending_check" CHECK (("companies"."retention_audit_pending_days" is null) = ("companies"."retention_audit_pending_at" is null));
