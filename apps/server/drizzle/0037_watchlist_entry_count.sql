ALTER TABLE "companies" ADD COLUMN "watchlist_entry_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Issue 32: each company's count of watchlist entries, kept by statement triggers (one
-- UPDATE per company per statement: an import of thousands of entries is one), so that the
-- code check asks the company's row whether the watchlist may concern a visitor instead of
-- probing the entries, which the planner read whole when other companies held entries.
CREATE FUNCTION sesame_count_watchlist_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each transition table exists only in the triggers that declare it: a nested IF, so that
  -- an INSERT's trigger never plans a query of old_entries.
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_entries o JOIN new_entries n ON n.id = o.id
                    WHERE n.company_id IS DISTINCT FROM o.company_id) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE companies c SET watchlist_entry_count = c.watchlist_entry_count - o.n
      FROM (SELECT company_id, count(*) AS n FROM old_entries GROUP BY company_id) o
     WHERE c.id = o.company_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE companies c SET watchlist_entry_count = c.watchlist_entry_count + n.n
      FROM (SELECT company_id, count(*) AS n FROM new_entries GROUP BY company_id) n
     WHERE c.id = n.company_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER watchlist_entries_count_insert AFTER INSERT ON watchlist_entries
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION sesame_count_watchlist_entries();
--> statement-breakpoint
CREATE TRIGGER watchlist_entries_count_update AFTER UPDATE ON watchlist_entries
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION sesame_count_watchlist_entries();
--> statement-breakpoint
CREATE TRIGGER watchlist_entries_count_delete AFTER DELETE ON watchlist_entries
  REFERENCING OLD TABLE AS old_entries
  FOR EACH STATEMENT EXECUTE FUNCTION sesame_count_watchlist_entries();
--> statement-breakpoint
UPDATE companies c
   SET watchlist_entry_count = (SELECT count(*) FROM watchlist_entries w WHERE w.company_id = c.id);
