CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "visitors_search_trgm_idx" ON "visitors" USING gin (("firstname" || ' ' || "lastname" || ' ' || "firstname" || ' ' || "email") gin_trgm_ops);
