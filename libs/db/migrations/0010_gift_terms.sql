ALTER TABLE "gifts" ADD COLUMN "term_ends_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "gifts_term_ends_at_idx" ON "gifts" USING btree ("term_ends_at") WHERE status = 'redeemed';