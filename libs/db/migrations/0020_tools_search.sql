CREATE TABLE "tools_search" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tool" text NOT NULL,
	"kind" text NOT NULL,
	"title" text,
	"share_code" text,
	"prompt_id" uuid,
	"session_id" text NOT NULL,
	"user_id" uuid,
	"is_public" boolean NOT NULL,
	"share_type" text NOT NULL,
	"share_expires_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"moderation_status" text NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"keywords" text[],
	"created_at" timestamp with time zone NOT NULL,
	"search_vector" "tsvector" NOT NULL,
	CONSTRAINT "tools_search_kind_check" CHECK (kind IN ('content', 'responses'))
);
--> statement-breakpoint
CREATE TABLE "tools_search_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tools_search_state" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"external" boolean DEFAULT false NOT NULL,
	CONSTRAINT "tools_search_state_singleton_check" CHECK (singleton)
);
--> statement-breakpoint
CREATE INDEX "tools_search_vector_idx" ON "tools_search" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tools_search_created_idx" ON "tools_search" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_search_listed_idx" ON "tools_search" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_search_session_idx" ON "tools_search" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "tools_search_user_idx" ON "tools_search" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_listed_newest_idx" ON "tools_adventure_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_listed_popular_idx" ON "tools_adventure_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_listed_featured_idx" ON "tools_adventure_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_listed_rating_idx" ON "tools_adventure_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_listed_newest_idx" ON "tools_book_blurbs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_listed_popular_idx" ON "tools_book_blurbs" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_listed_featured_idx" ON "tools_book_blurbs" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_listed_rating_idx" ON "tools_book_blurbs" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_character_names_listed_newest_idx" ON "tools_character_names" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_character_names_listed_popular_idx" ON "tools_character_names" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_character_names_listed_featured_idx" ON "tools_character_names" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_character_names_listed_rating_idx" ON "tools_character_names" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_listed_newest_idx" ON "tools_comedy_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_listed_popular_idx" ON "tools_comedy_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_listed_featured_idx" ON "tools_comedy_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_listed_rating_idx" ON "tools_comedy_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_listed_newest_idx" ON "tools_family_interview_questions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_listed_popular_idx" ON "tools_family_interview_questions" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_listed_featured_idx" ON "tools_family_interview_questions" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_listed_rating_idx" ON "tools_family_interview_questions" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_first_lines_listed_newest_idx" ON "tools_first_lines" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_first_lines_listed_popular_idx" ON "tools_first_lines" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_first_lines_listed_featured_idx" ON "tools_first_lines" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_first_lines_listed_rating_idx" ON "tools_first_lines" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flashcards_listed_newest_idx" ON "tools_flashcards" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flashcards_listed_popular_idx" ON "tools_flashcards" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flashcards_listed_featured_idx" ON "tools_flashcards" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flashcards_listed_rating_idx" ON "tools_flashcards" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flipbooks_listed_newest_idx" ON "tools_flipbooks" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flipbooks_listed_popular_idx" ON "tools_flipbooks" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flipbooks_listed_featured_idx" ON "tools_flipbooks" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_flipbooks_listed_rating_idx" ON "tools_flipbooks" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_listed_newest_idx" ON "tools_horror_story_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_listed_popular_idx" ON "tools_horror_story_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_listed_featured_idx" ON "tools_horror_story_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_listed_rating_idx" ON "tools_horror_story_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_listed_newest_idx" ON "tools_meet_cutes" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_listed_popular_idx" ON "tools_meet_cutes" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_listed_featured_idx" ON "tools_meet_cutes" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_listed_rating_idx" ON "tools_meet_cutes" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_listed_newest_idx" ON "tools_memory_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_listed_popular_idx" ON "tools_memory_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_listed_featured_idx" ON "tools_memory_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_listed_rating_idx" ON "tools_memory_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_listed_newest_idx" ON "tools_mystery_plots" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_listed_popular_idx" ON "tools_mystery_plots" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_listed_featured_idx" ON "tools_mystery_plots" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_listed_rating_idx" ON "tools_mystery_plots" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_plot_twists_listed_newest_idx" ON "tools_plot_twists" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_plot_twists_listed_popular_idx" ON "tools_plot_twists" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_plot_twists_listed_featured_idx" ON "tools_plot_twists" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_plot_twists_listed_rating_idx" ON "tools_plot_twists" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_listed_newest_idx" ON "tools_romance_writing_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_listed_popular_idx" ON "tools_romance_writing_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_listed_featured_idx" ON "tools_romance_writing_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_listed_rating_idx" ON "tools_romance_writing_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_prompts_listed_newest_idx" ON "tools_story_prompts" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_prompts_listed_popular_idx" ON "tools_story_prompts" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_prompts_listed_featured_idx" ON "tools_story_prompts" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_prompts_listed_rating_idx" ON "tools_story_prompts" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_titles_listed_newest_idx" ON "tools_story_titles" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_titles_listed_popular_idx" ON "tools_story_titles" USING btree ("view_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_titles_listed_featured_idx" ON "tools_story_titles" USING btree ("is_featured" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "tools_story_titles_listed_rating_idx" ON "tools_story_titles" USING btree (((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST,"rating_count" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_public AND deleted_at IS NULL;