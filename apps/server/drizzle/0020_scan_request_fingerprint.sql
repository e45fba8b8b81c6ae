-- An Idempotency-Key's stored answer goes only to the same request again (issue 26 §6):
-- the key is kept with the route and a hash of the request. A key stored before this
-- (kept a day at most) has neither; it gets '' for both, which no request matches, so a
-- retry of it answers 422 and changes nothing, rather than toggling its holder a second
-- time (had the row been deleted) or handing its answer to another request.
ALTER TABLE "scan_requests" ADD COLUMN "route" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_requests" ADD COLUMN "request_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_requests" ALTER COLUMN "route" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "scan_requests" ALTER COLUMN "request_hash" DROP DEFAULT;
