ALTER TABLE "user_data_exports" ADD COLUMN "format" text DEFAULT 'json' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_data_exports" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "user_data_exports" ADD CONSTRAINT "user_data_exports_format_check" CHECK (format IN ('json', 'pdf', 'zip'));