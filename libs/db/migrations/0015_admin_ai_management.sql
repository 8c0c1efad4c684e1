CREATE TABLE "ai_conversation_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text,
	"prompt_key" text NOT NULL,
	"prompt_version" integer,
	"feature" text NOT NULL,
	"provider" text,
	"model" text,
	"script" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"turns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"checks_passed" integer DEFAULT 0 NOT NULL,
	"checks_total" integer DEFAULT 0 NOT NULL,
	"total_latency_ms" integer DEFAULT 0 NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_conversation_tests_status_check" CHECK (status IN ('passed', 'failed', 'error'))
);
--> statement-breakpoint
ALTER TABLE "ai_provider_configs" ADD COLUMN "feature" text;--> statement-breakpoint
ALTER TABLE "ai_conversation_tests" ADD CONSTRAINT "ai_conversation_tests_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_conversation_tests_created_at_idx" ON "ai_conversation_tests" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ai_conversation_tests_prompt_idx" ON "ai_conversation_tests" USING btree ("prompt_key","prompt_version");--> statement-breakpoint
CREATE INDEX "ai_conversation_tests_created_by_idx" ON "ai_conversation_tests" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "ai_provider_configs_capability_feature_idx" ON "ai_provider_configs" USING btree ("capability","feature");