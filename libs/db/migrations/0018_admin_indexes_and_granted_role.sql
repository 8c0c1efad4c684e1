ALTER TABLE "accounts" ADD COLUMN "granted_role" text;--> statement-breakpoint
CREATE INDEX "accounts_created_at_idx" ON "accounts" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "campaigns_created_at_idx" ON "campaigns" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stories_created_at_idx" ON "stories" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "conversation_messages_user_created_idx" ON "conversation_messages" USING btree ("created_at" DESC NULLS FIRST) WHERE role = 'user';--> statement-breakpoint
CREATE INDEX "books_published_updated_idx" ON "books" USING btree ("updated_at" DESC NULLS FIRST) WHERE status = 'published';--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_granted_role_check" CHECK (granted_role IS NULL OR granted_role IN ('support', 'admin'));