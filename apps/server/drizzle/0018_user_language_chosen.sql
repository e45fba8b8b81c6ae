-- A staff member's mail language follows the language they sign in with (issue 18),
-- unless they chose it on their mail preferences page. Before this, only that page set
-- it, and its default was French: a person whose language is not French chose it.
ALTER TABLE "users" ADD COLUMN "language_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "users" SET "language_chosen" = true WHERE "language" <> 'fr';
