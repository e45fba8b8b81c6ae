-- Issue 32: the per-route rate limits' counters, shared by every instance on this database
-- (apps/server/src/rate-limits/postgres-store.ts). One row per route and client key: its hits
-- in the window that ends at resets_at. UNLOGGED (written by hand; drizzle-kit has no word for
-- it): every counted request writes a row, and a counter is worth no WAL; a crash or a failover
-- to a standby only empties the table, which opens every window afresh. Expired rows are
-- deleted by the background sweep (rate-limits/sweep.ts).
CREATE UNLOGGED TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
