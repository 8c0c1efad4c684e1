CREATE TABLE "ai_request_counters" (
	"user_id" uuid NOT NULL,
	"period" text NOT NULL,
	"window_start" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_request_counters_pkey" PRIMARY KEY("user_id","period","window_start"),
	CONSTRAINT "ai_request_counters_period_check" CHECK (period IN ('day', 'month')),
	CONSTRAINT "ai_request_counters_count_check" CHECK (count >= 0)
);
--> statement-breakpoint
ALTER TABLE "ai_request_counters" ADD CONSTRAINT "ai_request_counters_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;