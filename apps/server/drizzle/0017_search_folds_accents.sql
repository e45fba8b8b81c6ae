-- Searches ignore case and accents ("keita" finds "Keïta"): every list search compares
-- sesame_fold(column) with sesame_fold(what was typed). unaccent() is only STABLE (its
-- dictionary could change), so an index cannot use it directly; this wrapper names the
-- dictionary and is declared IMMUTABLE, which is the documented way to index it.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
DROP INDEX "visitors_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "visitors_search_trgm_idx" ON "visitors" USING gin ((sesame_fold("firstname" || ' ' || "lastname" || ' ' || "firstname" || ' ' || "email" || ' ' || "uidn")) gin_trgm_ops);
