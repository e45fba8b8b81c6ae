-- Issue 26 §9: what the platform's own staff do to a company is marked in that company's
-- audit log. An entry is by the platform when its actor's active role is a cross-tenant one
-- (ROLE_ADMIN, ROLE_SESAME: packages/shared CROSS_TENANT_ROLES) and the actor's own company
-- is not the entry's. The database decides it as each row is written, from the actor's row,
-- so every writer is covered -- audit() and the manual-check triggers of migration 0012 --
-- and no insert can set it otherwise. The active role is session-rule.ts's: the first known
-- role of the list, else ROLE_USER. test/audit-platform.test.ts holds this function equal to
-- activeRole and CROSS_TENANT_ROLES for every pair of roles. Entries written before this
-- migration keep false: who acted then is not known reliably now.
ALTER TABLE "audit_events" ADD COLUMN "by_platform" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_events_platform_idx" ON "audit_events" USING btree ("company_id","at") WHERE "audit_events"."by_platform";--> statement-breakpoint
CREATE OR REPLACE FUNCTION sesame_audit_by_platform() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.by_platform := NEW.company_id IS NOT NULL AND EXISTS (
    SELECT 1
      FROM users u
     WHERE u.id = NEW.actor_user_id
       AND u.company_id IS DISTINCT FROM NEW.company_id
       AND coalesce(
             (SELECT r FROM unnest(u.roles) WITH ORDINALITY AS t(r, i)
               WHERE r = ANY ('{ROLE_USER,ROLE_EMPLOYEE,ROLE_SUPERVISOR,ROLE_SESAME,ROLE_MANAGER,ROLE_ADMIN,ROLE_SUPER_ADMIN}'::text[])
               ORDER BY i LIMIT 1),
             'ROLE_USER') = ANY ('{ROLE_ADMIN,ROLE_SESAME}'::text[])
  );
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_by_platform BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION sesame_audit_by_platform();
