-- A meeting's and an event's day as instants (issue 13 §5): written by the server
-- when the row is created (dayBounds, events/time.ts), so the code check compares
-- instants and no query reads the 'DD/MM/YYYY' text. The rows already there are
-- filled here, once, by the reading the code check used until now: the day starts
-- at the local midnight that begins it and ends at the one that begins the next
-- day; where daylight saving skips that midnight the day turns at the change, where
-- it repeats, at the first one (the earlier of two readings). Day and month overflow
-- roll forward. test/day-end.test.ts runs these two UPDATEs against TypeScript.
ALTER TABLE "events" ADD COLUMN "day_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "day_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "day_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visitors" ADD COLUMN "day_ends_at" timestamp with time zone;--> statement-breakpoint
UPDATE "events" AS t SET
  "day_starts_at" = least(m.midnight at time zone m.tz,
                          (m.midnight - interval '1 hour') at time zone m.tz + interval '1 hour'),
  "day_ends_at" = least((m.midnight + interval '1 day') at time zone m.tz,
                        (m.midnight + interval '23 hours') at time zone m.tz + interval '1 hour')
FROM (SELECT x.id, c.timezone AS tz,
             make_timestamp(substr(x.date_event, 7, 4)::int, 1, 1, 0, 0, 0)
             + (substr(x.date_event, 4, 2)::int - 1) * interval '1 month'
             + (substr(x.date_event, 1, 2)::int - 1) * interval '1 day' AS midnight
        FROM "events" AS x JOIN "companies" AS c ON c.id = x.company_id
       WHERE x.date_event ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$') AS m
WHERE m.id = t.id;--> statement-breakpoint
UPDATE "visitors" AS t SET
  "day_starts_at" = least(m.midnight at time zone m.tz,
                          (m.midnight - interval '1 hour') at time zone m.tz + interval '1 hour'),
  "day_ends_at" = least((m.midnight + interval '1 day') at time zone m.tz,
                        (m.midnight + interval '23 hours') at time zone m.tz + interval '1 hour')
FROM (SELECT x.id, c.timezone AS tz,
             make_timestamp(substr(x.request_date, 7, 4)::int, 1, 1, 0, 0, 0)
             + (substr(x.request_date, 4, 2)::int - 1) * interval '1 month'
             + (substr(x.request_date, 1, 2)::int - 1) * interval '1 day' AS midnight
        FROM "visitors" AS x JOIN "companies" AS c ON c.id = x.company_id
       WHERE x.request_date ~ '^[0-9]{2}/[0-9]{2}/[0-9]{4}$') AS m
WHERE m.id = t.id;--> statement-breakpoint
-- An event whose date the form could never have sent has no day to end: it is over.
UPDATE "events" SET "day_starts_at" = "created_at", "day_ends_at" = "created_at" WHERE "day_ends_at" IS NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "day_starts_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "day_ends_at" SET NOT NULL;
