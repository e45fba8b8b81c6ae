CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_channels" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"url_sealed" text NOT NULL,
	"url_host" text NOT NULL,
	"site_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_chat" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"slack_bot_token_sealed" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"endpoint_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret_sealed" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notification_channels" jsonb DEFAULT '{"request":"mail","arrival":"mail","here":"mail"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_channels" ADD CONSTRAINT "chat_channels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_channels" ADD CONSTRAINT "chat_channels_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_channels" ADD CONSTRAINT "chat_channels_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_chat" ADD CONSTRAINT "company_chat_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_chat" ADD CONSTRAINT "company_chat_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_user_key" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "api_keys_company_idx" ON "api_keys" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_channels_company_idx" ON "chat_channels" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_outbox_dedupe_key" ON "chat_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "chat_outbox_company_idx" ON "chat_outbox" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_outbox_pending_idx" ON "chat_outbox" USING btree ("next_attempt_at") WHERE "chat_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","seq") WHERE "webhook_deliveries"."state" in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_company_idx" ON "webhook_deliveries" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_company_idx" ON "webhook_endpoints" USING btree ("company_id");--> statement-breakpoint
-- Issue 34: webhooks. What happened is written as one delivery per subscribed endpoint in
-- the transaction that did it, whatever path did it (a screen, the kiosk, a mail's signed
-- link, an API key): the worker posts it after the commit. A company with no endpoint pays
-- one index probe. The message id (Standard Webhooks' webhook-id) is one per event.
CREATE OR REPLACE FUNCTION sesame_emit_webhook(p_company uuid, p_type text, p_data jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_message text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO webhook_deliveries (id, endpoint_id, company_id, message_id, type, payload)
  SELECT gen_random_uuid(), e.id, e.company_id, v_message, p_type,
         jsonb_build_object(
           'type', p_type,
           'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'data', p_data)
    FROM webhook_endpoints e
   WHERE e.company_id = p_company AND e.enabled AND p_type = ANY (e.events);
  IF FOUND THEN
    PERFORM pg_notify('sesame_webhooks', p_company::text);
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_wants_webhook(p_company uuid, p_type text)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.company_id = p_company AND e.enabled AND p_type = ANY (e.events));
$$;
--> statement-breakpoint
-- A visit as webhooks describe it: ids, names and site; never the identity document, the
-- e-mail address or the phone number.
CREATE OR REPLACE FUNCTION sesame_webhook_visit(p_request uuid)
RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
           'visit_id', r.id,
           'status', CASE WHEN r.confirmed IS TRUE THEN 'confirmed'
                          WHEN r.confirmed IS FALSE THEN 'declined' ELSE 'requested' END,
           'date', v.request_date,
           'time', v.request_time,
           'reason', r.reason,
           'visitor', jsonb_build_object('id', v.id, 'firstname', v.firstname,
                                         'lastname', v.lastname,
                                         'organisation', v.organisation_name),
           'host', CASE WHEN u.id IS NOT NULL
                        THEN jsonb_build_object('id', u.id, 'name', trim(u.firstname || ' ' || u.name))
                        WHEN r.host IS NOT NULL THEN jsonb_build_object('id', NULL, 'name', r.host)
                        END,
           'site', jsonb_build_object('id', s.id, 'name', s.name),
           'invitation_id', r.invitation_id,
           'kiosk_id', r.kiosk_id)
    FROM visit_requests r
    JOIN visitors v ON v.id = r.visitor_id
    JOIN sites s ON s.id = v.site_id
    LEFT JOIN users u ON u.id = r.host_user_id
   WHERE r.id = p_request;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_webhook_visit_request() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_type text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- An invited visitor's visit is announced by invitation.created.
    IF NEW.invitation_id IS NOT NULL THEN RETURN NULL; END IF;
    v_type := CASE WHEN NEW.confirmed IS TRUE THEN 'visit.confirmed' ELSE 'visit.requested' END;
  ELSIF NEW.confirmed IS DISTINCT FROM OLD.confirmed AND NEW.confirmed IS NOT NULL THEN
    v_type := CASE WHEN NEW.confirmed THEN 'visit.confirmed' ELSE 'visit.declined' END;
  ELSE
    RETURN NULL;
  END IF;
  IF sesame_wants_webhook(NEW.company_id, v_type) THEN
    PERFORM sesame_emit_webhook(NEW.company_id, v_type, sesame_webhook_visit(NEW.id));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visit_requests_webhook AFTER INSERT OR UPDATE OF confirmed ON visit_requests
  FOR EACH ROW EXECUTE FUNCTION sesame_webhook_visit_request();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_webhook_visitor_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_type text;
  v_request uuid;
  v_at timestamptz;
  v_method text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    v_type := 'visitor.checked_in';
    v_at := NEW.check_in_at;
    v_method := NEW.check_in_method;
  ELSIF NEW.check_out_at IS NOT NULL AND OLD.check_out_at IS NULL THEN
    v_type := 'visitor.checked_out';
    v_at := NEW.check_out_at;
    v_method := NEW.check_out_method;
  ELSE
    RETURN NULL;
  END IF;
  IF NOT sesame_wants_webhook(NEW.company_id, v_type) THEN RETURN NULL; END IF;
  SELECT r.id INTO v_request FROM visit_requests r
   WHERE r.visitor_id = NEW.visitor_id ORDER BY r.created_at DESC LIMIT 1;
  PERFORM sesame_emit_webhook(NEW.company_id, v_type,
    coalesce(sesame_webhook_visit(v_request), jsonb_build_object(
      'visitor', (SELECT jsonb_build_object('id', v.id, 'firstname', v.firstname,
                                           'lastname', v.lastname,
                                           'organisation', v.organisation_name)
                    FROM visitors v WHERE v.id = NEW.visitor_id),
      'site', (SELECT jsonb_build_object('id', s.id, 'name', s.name)
                 FROM sites s WHERE s.id = NEW.site_id)))
    || jsonb_build_object('check_id', NEW.id, 'at', v_at, 'method', v_method,
                          'check_site', (SELECT jsonb_build_object('id', s.id, 'name', s.name)
                                           FROM sites s WHERE s.id = NEW.site_id)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visitor_checks_webhook AFTER INSERT OR UPDATE OF check_out_at ON visitor_checks
  FOR EACH ROW EXECUTE FUNCTION sesame_webhook_visitor_check();
--> statement-breakpoint
-- An invitation is announced when its transaction commits (a deferred trigger): by then its
-- visitors' visits are written too.
CREATE OR REPLACE FUNCTION sesame_webhook_invitation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT sesame_wants_webhook(NEW.company_id, 'invitation.created') THEN RETURN NULL; END IF;
  PERFORM sesame_emit_webhook(NEW.company_id, 'invitation.created', jsonb_build_object(
    'invitation_id', NEW.id,
    'first_date', NEW.first_date,
    'time', NEW.time,
    'end_time', NEW.end_time,
    'recurring', NEW.rrule IS NOT NULL,
    'reason', NEW.reason,
    'site', (SELECT jsonb_build_object('id', s.id, 'name', s.name) FROM sites s WHERE s.id = NEW.site_id),
    'host', (SELECT jsonb_build_object('id', u.id, 'name', trim(u.firstname || ' ' || u.name))
               FROM users u WHERE u.id = NEW.host_user_id),
    'visits', coalesce((SELECT jsonb_agg(sesame_webhook_visit(r.id) ORDER BY r.created_at)
                          FROM visit_requests r WHERE r.invitation_id = NEW.id), '[]'::jsonb)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER invitations_webhook AFTER INSERT ON invitations
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION sesame_webhook_invitation();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_webhook_watchlist_hold() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT sesame_wants_webhook(NEW.company_id, 'watchlist.matched') THEN RETURN NULL; END IF;
  PERFORM sesame_emit_webhook(NEW.company_id, 'watchlist.matched', jsonb_build_object(
    'hold_id', NEW.id,
    'visit_id', NEW.request_id,
    'source', NEW.source,
    'matched_on', NEW.matched_on,
    'visitor', (SELECT jsonb_build_object('id', v.id, 'firstname', v.firstname,
                                          'lastname', v.lastname,
                                          'organisation', v.organisation_name)
                  FROM visitors v WHERE v.id = NEW.visitor_id),
    'site', (SELECT jsonb_build_object('id', s.id, 'name', s.name) FROM sites s WHERE s.id = NEW.site_id)));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER watchlist_holds_webhook AFTER INSERT ON watchlist_holds
  FOR EACH ROW EXECUTE FUNCTION sesame_webhook_watchlist_hold();
--> statement-breakpoint
-- A roll call is announced when it starts and when it ends (its people's marks then).
CREATE OR REPLACE FUNCTION sesame_webhook_roll_call() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_type text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    v_type := 'roll_call.started';
  ELSIF NEW.ended_at IS NOT NULL AND OLD.ended_at IS NULL THEN
    v_type := 'roll_call.ended';
  ELSE
    RETURN NULL;
  END IF;
  IF NOT sesame_wants_webhook(NEW.company_id, v_type) THEN RETURN NULL; END IF;
  PERFORM sesame_emit_webhook(NEW.company_id, v_type, jsonb_build_object(
    'roll_call_id', NEW.id,
    'started_at', NEW.started_at,
    'ended_at', NEW.ended_at,
    'site', (SELECT jsonb_build_object('id', s.id, 'name', s.name) FROM sites s WHERE s.id = NEW.site_id))
    || CASE WHEN v_type = 'roll_call.ended' THEN
         (SELECT jsonb_build_object('people', count(*),
                                    'safe', count(*) FILTER (WHERE p.status = 'safe'),
                                    'missing', count(*) FILTER (WHERE p.status = 'missing'),
                                    'unknown', count(*) FILTER (WHERE p.status = 'unknown'))
            FROM roll_call_people p WHERE p.roll_call_id = NEW.id)
       ELSE '{}'::jsonb END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER roll_calls_webhook AFTER INSERT OR UPDATE OF ended_at ON roll_calls
  FOR EACH ROW EXECUTE FUNCTION sesame_webhook_roll_call();
--> statement-breakpoint
-- Issue 34: the host's arrival message by mail, by chat or both ("Mes notifications"). A
-- chat chosen while the company has no chat connected falls back to the mail, so nobody is
-- silenced by a connection removed.
CREATE OR REPLACE FUNCTION sesame_queue_arrival_mail() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
  v_email text;
  v_channel text;
  v_chat boolean;
BEGIN
  SELECT u.id, u.email, coalesce(u.notification_channels->>'arrival', 'mail')
    INTO v_user, v_email, v_channel
    FROM visit_requests r
    JOIN users u ON u.id = r.host_user_id
   WHERE r.visitor_id = NEW.visitor_id
     AND r.company_id = NEW.company_id
     AND r.confirmed IS TRUE
     AND u.status
     AND u.arrival_mail
   ORDER BY r.created_at DESC
   LIMIT 1;
  IF v_user IS NULL THEN RETURN NULL; END IF;
  v_chat := v_channel <> 'mail' AND (
    EXISTS (SELECT 1 FROM chat_channels c WHERE c.company_id = NEW.company_id)
    OR EXISTS (SELECT 1 FROM company_chat c WHERE c.company_id = NEW.company_id
                                              AND c.slack_bot_token_sealed IS NOT NULL));
  IF v_channel <> 'chat' OR NOT v_chat THEN
    INSERT INTO mail_outbox (id, company_id, kind, to_address, payload, dedupe_key)
    VALUES (gen_random_uuid(), NEW.company_id, 'host_arrival', v_email,
            jsonb_build_object('visitorId', NEW.visitor_id, 'checkId', NEW.id, 'userId', v_user),
            'host_arrival:' || NEW.id)
    ON CONFLICT (dedupe_key) DO NOTHING;
  END IF;
  IF v_chat THEN
    INSERT INTO chat_outbox (id, company_id, user_id, kind, payload, dedupe_key)
    VALUES (gen_random_uuid(), NEW.company_id, v_user, 'arrival',
            jsonb_build_object('visitorId', NEW.visitor_id, 'checkId', NEW.id, 'siteId', NEW.site_id),
            'chat_arrival:' || NEW.id)
    ON CONFLICT (dedupe_key) DO NOTHING;
    PERFORM pg_notify('sesame_chat', NEW.company_id::text);
  END IF;
  RETURN NULL;
END
$$;
