CREATE INDEX "user_checks_in_idx" ON "user_checks" USING btree ("check_in_at");--> statement-breakpoint
CREATE INDEX "visitor_checks_in_idx" ON "visitor_checks" USING btree ("check_in_at");