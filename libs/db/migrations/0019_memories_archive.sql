CREATE TABLE "archive_checksums" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"size_bytes" bigint NOT NULL,
	"crc32" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "archive_checksums_crc32_check" CHECK (crc32 BETWEEN 0 AND 4294967295 AND size_bytes >= 0)
);
--> statement-breakpoint
CREATE INDEX "recordings_memories_idx" ON "recordings" USING btree ("user_id","media_type",(created_at AT TIME ZONE 'UTC') DESC,id DESC,"created_at") WHERE status = 'completed';--> statement-breakpoint
CREATE INDEX "stories_memories_idx" ON "stories" USING btree ("user_id",(created_at AT TIME ZONE 'UTC') DESC,id DESC,"created_at");--> statement-breakpoint
CREATE INDEX "images_memories_idx" ON "images" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);