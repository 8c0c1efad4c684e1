ALTER TABLE "recordings" DROP CONSTRAINT "recordings_transcript_source_check";--> statement-breakpoint
ALTER TABLE "recordings" ADD COLUMN "transcript_model" text;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_transcript_source_check" CHECK (transcript_source IS NULL OR transcript_source IN ('browser', 'google', 'deepgram', 'local'));