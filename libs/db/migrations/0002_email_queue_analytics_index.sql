-- Admin email analytics reads every queue row created in a period and counts statuses and stamps.
-- Covering those columns lets it read the index alone (an index-only scan once autovacuum has run)
-- instead of the table; drizzle's index builder cannot express INCLUDE, hence this hand-written file.
CREATE INDEX IF NOT EXISTS "email_send_queue_created_covering_idx" ON "email_send_queue" USING btree ("created_at") INCLUDE ("template_id", "category", "status", "delivered_at", "opened_at", "clicked_at");
