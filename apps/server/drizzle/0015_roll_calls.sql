CREATE TABLE "roll_call_people" (
	"id" uuid PRIMARY KEY NOT NULL,
	"roll_call_id" uuid NOT NULL,
	"check_id" uuid NOT NULL,
	"person_table" text NOT NULL,
	"person_id" uuid NOT NULL,
	"person_kind" text NOT NULL,
	"firstname" text NOT NULL,
	"lastname" text NOT NULL,
	"organisation" text,
	"check_in_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'unknown' NOT NULL,
	"marked_by" uuid,
	"marked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "roll_calls" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"started_by" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid
);
--> statement-breakpoint
ALTER TABLE "roll_call_people" ADD CONSTRAINT "roll_call_people_roll_call_id_roll_calls_id_fk" FOREIGN KEY ("roll_call_id") REFERENCES "public"."roll_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_call_people" ADD CONSTRAINT "roll_call_people_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_calls" ADD CONSTRAINT "roll_calls_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_calls" ADD CONSTRAINT "roll_calls_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roll_calls" ADD CONSTRAINT "roll_calls_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roll_call_people_check_key" ON "roll_call_people" USING btree ("roll_call_id","check_id");--> statement-breakpoint
CREATE INDEX "roll_call_people_person_idx" ON "roll_call_people" USING btree ("person_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roll_calls_one_open_key" ON "roll_calls" USING btree ("company_id") WHERE "roll_calls"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "roll_calls_company_idx" ON "roll_calls" USING btree ("company_id","started_at");--> statement-breakpoint
-- Every screen of a roll call hears it start, each mark, and its end, on the live
-- channel of migration 0008 (on-site/live.ts). Only ids travel; screens refetch.
-- The people frozen at the start are inserted with the roll call: its own insert says so.
CREATE OR REPLACE FUNCTION sesame_notify_roll_call() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  company uuid;
  roll_call uuid;
  op text;
BEGIN
  IF TG_TABLE_NAME = 'roll_calls' THEN
    IF TG_OP = 'UPDATE' AND NEW.ended_at IS NOT DISTINCT FROM OLD.ended_at THEN
      RETURN NEW;
    END IF;
    company := NEW.company_id;
    roll_call := NEW.id;
    op := CASE WHEN TG_OP = 'INSERT' THEN 'started' ELSE 'ended' END;
  ELSE
    IF NEW.status IS NOT DISTINCT FROM OLD.status THEN
      RETURN NEW;
    END IF;
    SELECT rc.company_id INTO company FROM roll_calls rc WHERE rc.id = NEW.roll_call_id;
    roll_call := NEW.roll_call_id;
    op := 'marked';
  END IF;
  PERFORM pg_notify('sesame_live', json_build_object(
    'type', 'rollCall',
    'company_id', company,
    'roll_call_id', roll_call,
    'op', op
  )::text);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER roll_calls_notify AFTER INSERT OR UPDATE ON roll_calls
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_roll_call();
--> statement-breakpoint
CREATE TRIGGER roll_call_people_notify AFTER UPDATE ON roll_call_people
  FOR EACH ROW EXECUTE FUNCTION sesame_notify_roll_call();
