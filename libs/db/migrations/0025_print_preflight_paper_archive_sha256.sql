ALTER TABLE "archive_checksums" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "paper" text;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD COLUMN "preflight" jsonb;--> statement-breakpoint
ALTER TABLE "archive_checksums" ADD CONSTRAINT "archive_checksums_sha256_check" CHECK (sha256 IS NULL OR sha256 ~ '^[0-9a-f]{64}$');--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_paper_check" CHECK (paper IS NULL OR paper IN ('white', 'cream'));