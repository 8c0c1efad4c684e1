CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"role" text DEFAULT 'user' NOT NULL,
	"email_confirmed_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_role_check" CHECK (role IN ('user', 'support', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "auth_lockouts" (
	"email" text PRIMARY KEY NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"alerted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"user_agent" text,
	"ip_prefix" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refreshed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"full_name" text,
	"phone" text,
	"bio" text,
	"avatar_url" text,
	"display_name" text,
	"relationship_role" text,
	"birth_year" integer,
	"preferred_method" text DEFAULT 'mixed' NOT NULL,
	"technology_comfort" text DEFAULT 'somewhat_comfortable' NOT NULL,
	"subscription_tier" text DEFAULT 'free' NOT NULL,
	"subscription_status" text,
	"trial_ends_at" timestamp with time zone,
	"payment_customer_id" text,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"onboarding_step" text,
	"onboarding_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"memories_family_download" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_subscription_tier_check" CHECK (subscription_tier IN ('free', 'starter', 'family', 'premium')),
	CONSTRAINT "profiles_subscription_status_check" CHECK (subscription_status IS NULL OR subscription_status IN ('trial', 'active', 'cancelled')),
	CONSTRAINT "profiles_birth_year_check" CHECK (birth_year IS NULL OR birth_year BETWEEN 1850 AND 2100)
);
--> statement-breakpoint
CREATE TABLE "user_data_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"export_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"file_url" text,
	"file_size_bytes" bigint,
	"error" text,
	"expires_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_data_exports_type_check" CHECK (export_type IN ('stories', 'profile', 'all')),
	CONSTRAINT "user_data_exports_status_check" CHECK (status IN ('pending', 'processing', 'completed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "user_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"push_token" text NOT NULL,
	"device_name" text,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_devices_platform_check" CHECK (platform IN ('ios', 'android', 'web'))
);
--> statement-breakpoint
CREATE TABLE "user_grammar_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"grammar_enabled" boolean DEFAULT true NOT NULL,
	"auto_correct" boolean DEFAULT false NOT NULL,
	"suggestion_level" text DEFAULT 'moderate' NOT NULL,
	"tone_suggestions" boolean DEFAULT true NOT NULL,
	"clarity_suggestions" boolean DEFAULT true NOT NULL,
	"ai_enhancement_enabled" boolean DEFAULT false NOT NULL,
	"enhancement_style" text DEFAULT 'preserve' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_grammar_settings_level_check" CHECK (suggestion_level IN ('light', 'moderate', 'comprehensive')),
	CONSTRAINT "user_grammar_settings_style_check" CHECK (enhancement_style IN ('preserve', 'improve', 'transform'))
);
--> statement-breakpoint
CREATE TABLE "user_notification_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email_enabled" boolean DEFAULT true NOT NULL,
	"story_updates" boolean DEFAULT true NOT NULL,
	"family_invitations" boolean DEFAULT true NOT NULL,
	"weekly_digest" boolean DEFAULT true NOT NULL,
	"marketing_emails" boolean DEFAULT false NOT NULL,
	"sms_enabled" boolean DEFAULT false NOT NULL,
	"story_comments" boolean DEFAULT true NOT NULL,
	"collaboration_updates" boolean DEFAULT true NOT NULL,
	"push_enabled" boolean DEFAULT true NOT NULL,
	"writing_reminders" boolean DEFAULT false NOT NULL,
	"reminder_frequency" text DEFAULT 'weekly' NOT NULL,
	"reminder_time" time DEFAULT '09:00:00' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_notification_settings_frequency_check" CHECK (reminder_frequency IN ('daily', 'weekly', 'monthly'))
);
--> statement-breakpoint
CREATE TABLE "user_privacy_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"profile_visibility" text DEFAULT 'private' NOT NULL,
	"show_in_directory" boolean DEFAULT false NOT NULL,
	"allow_story_discovery" boolean DEFAULT false NOT NULL,
	"default_story_privacy" varchar(20) DEFAULT 'private' NOT NULL,
	"allow_family_collaboration" boolean DEFAULT true NOT NULL,
	"require_approval_for_shares" boolean DEFAULT true NOT NULL,
	"analytics_enabled" boolean DEFAULT true NOT NULL,
	"improvement_data_sharing" boolean DEFAULT true NOT NULL,
	"marketing_data_usage" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_privacy_settings_visibility_check" CHECK (profile_visibility IN ('public', 'family', 'private'))
);
--> statement-breakpoint
CREATE TABLE "user_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"preferred_language" varchar(10) DEFAULT 'en' NOT NULL,
	"dark_mode" boolean DEFAULT false NOT NULL,
	"text_size_preference" varchar(20) DEFAULT 'medium' NOT NULL,
	"timezone" varchar(100) DEFAULT 'America/New_York' NOT NULL,
	"high_contrast_mode" boolean DEFAULT false NOT NULL,
	"reduce_motion" boolean DEFAULT false NOT NULL,
	"screen_reader_optimized" boolean DEFAULT false NOT NULL,
	"system_announcements" boolean DEFAULT true NOT NULL,
	"sound_notifications" boolean DEFAULT true NOT NULL,
	"writing_prompts" boolean DEFAULT true NOT NULL,
	"writing_prompt_frequency" varchar(20) DEFAULT 'weekly' NOT NULL,
	"auto_save_enabled" boolean DEFAULT true NOT NULL,
	"auto_save_interval_minutes" integer DEFAULT 5 NOT NULL,
	"show_writing_tips" boolean DEFAULT true NOT NULL,
	"show_onboarding_hints" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_settings_text_size_check" CHECK (text_size_preference IN ('small', 'medium', 'large', 'extra-large')),
	CONSTRAINT "user_settings_auto_save_interval_check" CHECK (auto_save_interval_minutes BETWEEN 1 AND 120)
);
--> statement-breakpoint
CREATE TABLE "user_voice_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"recording_quality" text DEFAULT 'high' NOT NULL,
	"noise_reduction" boolean DEFAULT true NOT NULL,
	"auto_transcription" boolean DEFAULT true NOT NULL,
	"voice_enhancement" boolean DEFAULT false NOT NULL,
	"preferred_language" varchar(10) DEFAULT 'en' NOT NULL,
	"transcription_accuracy" text DEFAULT 'balanced' NOT NULL,
	"assistant_response_style" text DEFAULT 'concise' NOT NULL,
	"assistant_question_frequency" text DEFAULT 'moderate' NOT NULL,
	"assistant_conversation_pace" text DEFAULT 'natural' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_voice_settings_quality_check" CHECK (recording_quality IN ('standard', 'high', 'premium')),
	CONSTRAINT "user_voice_settings_accuracy_check" CHECK (transcription_accuracy IN ('speed', 'balanced', 'accuracy'))
);
--> statement-breakpoint
CREATE TABLE "campaign_create_flows" (
	"campaign_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"current_step" integer DEFAULT 1 NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"family_members" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"gift_address" jsonb,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_create_flows_status_check" CHECK (status IN ('in_progress', 'completed', 'abandoned'))
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"storyteller_name" text NOT NULL,
	"storyteller_email" text,
	"storyteller_phone" text,
	"relationship" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"prompts_sent" integer DEFAULT 0 NOT NULL,
	"stories_collected" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_relationship_check" CHECK (relationship IN ('grandparent', 'parent', 'partner', 'other')),
	CONSTRAINT "campaigns_status_check" CHECK (status IN ('active', 'paused', 'completed')),
	CONSTRAINT "campaigns_counters_check" CHECK (prompts_sent >= 0 AND stories_collected >= 0)
);
--> statement-breakpoint
CREATE TABLE "recordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"campaign_id" uuid,
	"title" text DEFAULT 'Untitled recording' NOT NULL,
	"description" text,
	"transcript" text,
	"ai_summary" text,
	"duration_seconds" integer,
	"storage_key" text,
	"audio_url" text,
	"mime_type" text,
	"waveform_data" real[],
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"media_type" text DEFAULT 'audio' NOT NULL,
	"original_file_size_bytes" bigint,
	"transcript_status" text,
	"transcript_source" text,
	"transcript_error" text,
	"transcript_updated_at" timestamp,
	"transcript_words" jsonb,
	"story_id" uuid,
	"trial_session_id" text,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "recordings_status_check" CHECK (status IN ('completed', 'upload_failed')),
	CONSTRAINT "recordings_media_type_check" CHECK (media_type IN ('audio', 'video')),
	CONSTRAINT "recordings_transcript_status_check" CHECK (transcript_status IS NULL OR transcript_status IN ('pending', 'processing', 'done', 'failed')),
	CONSTRAINT "recordings_transcript_source_check" CHECK (transcript_source IS NULL OR transcript_source IN ('browser', 'google', 'deepgram')),
	CONSTRAINT "recordings_storage_key_check" CHECK (status = 'upload_failed' OR storage_key IS NOT NULL),
	CONSTRAINT "recordings_sizes_check" CHECK ((duration_seconds IS NULL OR duration_seconds >= 0) AND (original_file_size_bytes IS NULL OR original_file_size_bytes >= 0))
);
--> statement-breakpoint
CREATE TABLE "stories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"campaign_id" uuid,
	"prompt" text,
	"response_text" text,
	"response_audio_url" text,
	"response_type" text,
	"title" text,
	"type" text DEFAULT 'story' NOT NULL,
	"content" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"book_id" uuid,
	"ai_enhanced" boolean DEFAULT false NOT NULL,
	"source_recording_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"source_conversation_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"word_count" integer DEFAULT 0 NOT NULL,
	"provenance" jsonb,
	"typography" jsonb,
	"header_footer" jsonb,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "stories_response_type_check" CHECK (response_type IS NULL OR response_type IN ('text', 'voice')),
	CONSTRAINT "stories_response_shape_check" CHECK (response_type IS NULL OR (campaign_id IS NOT NULL AND prompt IS NOT NULL)),
	CONSTRAINT "stories_api_shape_check" CHECK (response_type IS NOT NULL OR title IS NOT NULL),
	CONSTRAINT "stories_title_length_check" CHECK (title IS NULL OR char_length(title) <= 200),
	CONSTRAINT "stories_content_length_check" CHECK (content IS NULL OR char_length(content) <= 50000),
	CONSTRAINT "stories_word_count_check" CHECK (word_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "story_conversions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"story_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source_type" text NOT NULL,
	"source_id" uuid NOT NULL,
	"readiness" text NOT NULL,
	"source_word_count" integer,
	"assessment" jsonb,
	"faithfulness" jsonb,
	"ai_model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_conversions_source_type_check" CHECK (source_type IN ('recording', 'conversation')),
	CONSTRAINT "story_conversions_readiness_check" CHECK (readiness IN ('ready', 'partial'))
);
--> statement-breakpoint
CREATE TABLE "story_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"story_id" uuid NOT NULL,
	"share_id" text NOT NULL,
	"created_by" uuid NOT NULL,
	"revoked_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"view_count" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_shares_view_count_check" CHECK (view_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"audio_storage_key" text,
	"duration_seconds" integer,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_messages_role_check" CHECK (role IN ('user', 'assistant', 'system')),
	CONSTRAINT "conversation_messages_duration_check" CHECK (duration_seconds IS NULL OR duration_seconds BETWEEN 0 AND 300)
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"campaign_id" uuid,
	"session_id" text,
	"title" text,
	"overview" text,
	"analysis" jsonb,
	"status" text DEFAULT 'active' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"quality_metrics" jsonb,
	"turn_count" integer DEFAULT 0 NOT NULL,
	"total_duration_seconds" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_status_check" CHECK (status IN ('active', 'completed')),
	CONSTRAINT "conversations_counters_check" CHECK (turn_count >= 0 AND total_duration_seconds >= 0),
	CONSTRAINT "conversations_completed_check" CHECK (status <> 'completed' OR completed_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "book_chapters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_id" uuid NOT NULL,
	"story_id" uuid NOT NULL,
	"chapter_number" integer NOT NULL,
	"title" text,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "book_chapters_number_check" CHECK (chapter_number > 0)
);
--> statement-breakpoint
CREATE TABLE "book_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"preview_url" text,
	"category" text,
	"relationship_type" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"author_name" text,
	"book_type" text DEFAULT 'memoir' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"story_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"word_count" integer DEFAULT 0 NOT NULL,
	"chapters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"campaign_id" uuid,
	"family_group_id" uuid,
	"template_id" text,
	"cover_template_id" text,
	"interior_template_id" text,
	"trim_size" text DEFAULT '6x9' NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"kdp_enrolled" boolean DEFAULT false NOT NULL,
	"kdp_select" boolean DEFAULT false NOT NULL,
	"created_at" timestamp DEFAULT now() NOT NULL,
	"updated_at" timestamp DEFAULT now() NOT NULL,
	CONSTRAINT "books_status_check" CHECK (status IN ('draft', 'in_progress', 'completed', 'published')),
	CONSTRAINT "books_trim_size_check" CHECK (trim_size IN ('5x8', '5.25x8', '5.5x8.5', '6x9', '7x10', '8x10', '8.5x11')),
	CONSTRAINT "books_word_count_check" CHECK (word_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "cover_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"preview_url" text,
	"category" text,
	"relationship_type" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "family_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "family_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_group_id" uuid NOT NULL,
	"invited_by" uuid,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"relationship" text,
	"message" text,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_by" uuid,
	"accepted_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"resent_count" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_invitations_role_check" CHECK (role IN ('family_contributor', 'family_viewer')),
	CONSTRAINT "family_invitations_status_check" CHECK (status IN ('pending', 'accepted', 'rejected', 'cancelled', 'expired')),
	CONSTRAINT "family_invitations_resent_count_check" CHECK (resent_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "family_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_group_id" uuid NOT NULL,
	"user_id" uuid,
	"role" text DEFAULT 'family_viewer' NOT NULL,
	"display_name" text,
	"relationship" text,
	"email" text,
	"avatar_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"removed_at" timestamp with time zone,
	"merged_into_id" uuid,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_members_role_check" CHECK (role IN ('owner', 'campaign_owner', 'family_contributor', 'family_viewer')),
	CONSTRAINT "family_members_status_check" CHECK (status IN ('active', 'removed')),
	CONSTRAINT "family_members_identity_check" CHECK (user_id IS NOT NULL OR display_name IS NOT NULL),
	CONSTRAINT "family_members_not_self_merge_check" CHECK (merged_into_id IS NULL OR merged_into_id <> id)
);
--> statement-breakpoint
CREATE TABLE "family_memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_group_id" uuid NOT NULL,
	"created_by" uuid,
	"title" text NOT NULL,
	"content" text,
	"memory_date" date,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "family_relationships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_group_id" uuid NOT NULL,
	"from_member_id" uuid NOT NULL,
	"to_member_id" uuid NOT NULL,
	"relationship_type" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_relationships_not_self_check" CHECK (from_member_id <> to_member_id)
);
--> statement-breakpoint
CREATE TABLE "timeline_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"family_group_id" uuid,
	"actor_id" uuid,
	"event_type" text NOT NULL,
	"subject_type" text,
	"subject_id" uuid,
	"title" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "timeline_reactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "timeline_reactions_type_check" CHECK (type IN ('like', 'love', 'celebrate'))
);
--> statement-breakpoint
CREATE TABLE "gifts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"sender_name" text,
	"message" text,
	"plan_id" text NOT NULL,
	"amount_cents" integer,
	"currency" text DEFAULT 'usd' NOT NULL,
	"payment_reference" text,
	"code_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"delivery_status" text DEFAULT 'pending' NOT NULL,
	"delivery_error" text,
	"delivery_attempts" integer DEFAULT 0 NOT NULL,
	"error_dismissed_at" timestamp with time zone,
	"redeemed_by" uuid,
	"redeemed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gifts_status_check" CHECK (status IN ('pending', 'redeemed', 'expired', 'cancelled')),
	CONSTRAINT "gifts_delivery_status_check" CHECK (delivery_status IN ('pending', 'sent', 'failed')),
	CONSTRAINT "gifts_redeemed_check" CHECK (status <> 'redeemed' OR redeemed_at IS NOT NULL),
	CONSTRAINT "gifts_amount_check" CHECK (amount_cents IS NULL OR amount_cents >= 0)
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source_type" text NOT NULL,
	"file_name" text,
	"mime_type" text,
	"file_size_bytes" bigint,
	"storage_key" text,
	"source_url" text,
	"title" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"extracted_text" text,
	"word_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"story_id" uuid,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_source_type_check" CHECK (source_type IN ('file', 'paste', 'url')),
	CONSTRAINT "imports_status_check" CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
	CONSTRAINT "imports_url_check" CHECK (source_type <> 'url' OR source_url IS NOT NULL),
	CONSTRAINT "imports_file_check" CHECK (source_type <> 'file' OR storage_key IS NOT NULL),
	CONSTRAINT "imports_word_count_check" CHECK (word_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "achievement_definitions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"icon" text,
	"points" integer DEFAULT 0 NOT NULL,
	"category" text,
	"criteria" jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "achievement_definitions_points_check" CHECK (points >= 0)
);
--> statement-breakpoint
CREATE TABLE "achievement_progress" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"achievement_id" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"target" integer NOT NULL,
	"unlocked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "achievement_progress_values_check" CHECK (progress >= 0 AND target > 0)
);
--> statement-breakpoint
CREATE TABLE "audio_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recording_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"play_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"story_id" uuid,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"kind" text DEFAULT 'photo' NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" bigint,
	"width" integer,
	"height" integer,
	"title" text,
	"caption" text,
	"taken_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "images_kind_check" CHECK (kind IN ('photo', 'document', 'art')),
	CONSTRAINT "images_dimensions_check" CHECK ((width IS NULL OR width > 0) AND (height IS NULL OR height > 0) AND (size_bytes IS NULL OR size_bytes >= 0))
);
--> statement-breakpoint
CREATE TABLE "export_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"storyteller_id" uuid,
	"book_id" uuid,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"storage_key" text,
	"size_bytes" bigint,
	"item_count" integer,
	"estimate" jsonb,
	"error" text,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "export_jobs_kind_check" CHECK (kind IN ('interior', 'cover', 'archive')),
	CONSTRAINT "export_jobs_status_check" CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
	CONSTRAINT "export_jobs_book_check" CHECK (kind = 'archive' OR book_id IS NOT NULL),
	CONSTRAINT "export_jobs_storyteller_check" CHECK (kind <> 'archive' OR storyteller_id IS NOT NULL),
	CONSTRAINT "export_jobs_sizes_check" CHECK ((size_bytes IS NULL OR size_bytes >= 0) AND (item_count IS NULL OR item_count >= 0))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"number" text NOT NULL,
	"provider_invoice_id" text,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"description" text,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"line_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pdf_url" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_status_check" CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible')),
	CONSTRAINT "invoices_amount_check" CHECK (amount_cents >= 0),
	CONSTRAINT "invoices_period_check" CHECK (period_start IS NULL OR period_end IS NULL OR period_end >= period_start)
);
--> statement-breakpoint
CREATE TABLE "consent_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"marketing" boolean NOT NULL,
	"analytics" boolean NOT NULL,
	"third_party" boolean NOT NULL,
	"source" text,
	"ip_prefix" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"content_type" text NOT NULL,
	"content_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"details" text,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"resolution_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_flags_content_type_check" CHECK (content_type IN ('story', 'recording', 'conversation')),
	CONSTRAINT "support_flags_status_check" CHECK (status IN ('open', 'reviewing', 'resolved', 'dismissed'))
);
--> statement-breakpoint
CREATE TABLE "ai_usage_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"feature" text NOT NULL,
	"provider" text NOT NULL,
	"model" text,
	"operation" text NOT NULL,
	"input_tokens" integer,
	"output_tokens" integer,
	"audio_seconds" numeric(10, 2),
	"characters" integer,
	"stt_cost_usd" numeric(12, 6) DEFAULT 0 NOT NULL,
	"llm_cost_usd" numeric(12, 6) DEFAULT 0 NOT NULL,
	"tts_cost_usd" numeric(12, 6) DEFAULT 0 NOT NULL,
	"latency_ms" integer,
	"success" boolean DEFAULT true NOT NULL,
	"error_code" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_usage_logs_operation_check" CHECK (operation IN ('stt', 'tts', 'llm')),
	CONSTRAINT "ai_usage_logs_costs_check" CHECK (stt_cost_usd >= 0 AND llm_cost_usd >= 0 AND tts_cost_usd >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_ab_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"base_template_id" uuid NOT NULL,
	"variant_template_id" uuid NOT NULL,
	"test_percentage" integer NOT NULL,
	"test_duration_days" integer,
	"success_metric" text DEFAULT 'open_rate' NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"start_date" timestamp with time zone DEFAULT now() NOT NULL,
	"end_date" timestamp with time zone,
	"results" jsonb,
	"results_updated_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_ab_tests_percentage_check" CHECK (test_percentage BETWEEN 1 AND 99),
	CONSTRAINT "email_ab_tests_status_check" CHECK (status IN ('running', 'completed', 'paused')),
	CONSTRAINT "email_ab_tests_metric_check" CHECK (success_metric IN ('open_rate', 'click_rate')),
	CONSTRAINT "email_ab_tests_templates_check" CHECK (base_template_id <> variant_template_id),
	CONSTRAINT "email_ab_tests_dates_check" CHECK (end_date IS NULL OR end_date >= start_date)
);
--> statement-breakpoint
CREATE TABLE "email_analytics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"date" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_analytics_counters_check" CHECK (sent >= 0 AND delivered >= 0 AND opened >= 0 AND clicked >= 0 AND bounced >= 0 AND complained >= 0 AND failed >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_automation_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"event" text NOT NULL,
	"template_id" uuid NOT NULL,
	"conditions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"delay_hours" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_automation_rules_delay_check" CHECK (delay_hours >= 0)
);
--> statement-breakpoint
CREATE TABLE "email_delivery_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"svix_id" text NOT NULL,
	"type" text NOT NULL,
	"provider_message_id" text,
	"queue_id" uuid,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"matched" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_send_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid,
	"user_id" uuid,
	"to_email" text NOT NULL,
	"subject" text NOT NULL,
	"html_content" text NOT NULL,
	"text_content" text,
	"template_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"category" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"scheduled_for" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"lease_expires_at" timestamp with time zone,
	"error_message" text,
	"provider_message_id" text,
	"message_id_header" text,
	"idempotency_key" text,
	"ab_test_id" uuid,
	"ab_variant" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"bounced_at" timestamp with time zone,
	"complained_at" timestamp with time zone,
	"last_event_at" timestamp with time zone,
	CONSTRAINT "email_send_queue_status_check" CHECK (status IN ('pending', 'processing', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "email_send_queue_category_check" CHECK (category IS NULL OR category IN ('transactional', 'marketing', 'onboarding', 'reminder', 'system')),
	CONSTRAINT "email_send_queue_ab_variant_check" CHECK (ab_variant IS NULL OR ab_variant IN ('base', 'variant')),
	CONSTRAINT "email_send_queue_attempts_check" CHECK (attempts >= 0 AND max_attempts >= 1)
);
--> statement-breakpoint
CREATE TABLE "email_suppressions" (
	"email" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"source_event_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_suppressions_reason_check" CHECK (reason IN ('hard_bounce', 'complaint', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "email_template_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"display_name" text,
	"description" text,
	"category" text NOT NULL,
	"subject_template" text NOT NULL,
	"html_template" text NOT NULL,
	"text_template" text,
	"available_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"required_variables" text[] DEFAULT '{}'::text[] NOT NULL,
	"trigger_events" text[] DEFAULT '{}'::text[] NOT NULL,
	"send_delay_hours" integer DEFAULT 0 NOT NULL,
	"max_sends_per_user" integer,
	"is_active" boolean NOT NULL,
	"changed_by" uuid,
	"change_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_template_versions_version_check" CHECK (version > 0)
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"display_name" text,
	"description" text,
	"category" text DEFAULT 'transactional' NOT NULL,
	"subject_template" text NOT NULL,
	"html_template" text NOT NULL,
	"text_template" text,
	"available_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"default_variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"required_variables" text[] DEFAULT '{}'::text[] NOT NULL,
	"trigger_events" text[] DEFAULT '{}'::text[] NOT NULL,
	"send_delay_hours" integer DEFAULT 0 NOT NULL,
	"max_sends_per_user" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"total_sent" integer DEFAULT 0 NOT NULL,
	"total_opened" integer DEFAULT 0 NOT NULL,
	"total_clicked" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_templates_name_check" CHECK (name ~ '^[a-z0-9][a-z0-9_]*$'),
	CONSTRAINT "email_templates_category_check" CHECK (category IN ('transactional', 'marketing', 'onboarding', 'reminder', 'system')),
	CONSTRAINT "email_templates_delay_check" CHECK (send_delay_hours >= 0),
	CONSTRAINT "email_templates_max_sends_check" CHECK (max_sends_per_user IS NULL OR max_sends_per_user > 0),
	CONSTRAINT "email_templates_counters_check" CHECK (total_sent >= 0 AND total_opened >= 0 AND total_clicked >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_email_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"unsubscribed_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"unsubscribed_all" boolean DEFAULT false NOT NULL,
	"suppressed_at" timestamp with time zone,
	"suppression_reason" text,
	"unsubscribe_token_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_email_preferences_reason_check" CHECK (suppression_reason IS NULL OR suppression_reason IN ('hard_bounce', 'complaint', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"impersonated_user_id" uuid,
	"ip_prefix" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_impersonations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "admin_impersonations_expiry_check" CHECK (expires_at > started_at)
);
--> statement-breakpoint
CREATE TABLE "ai_prompt_template_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"content" text NOT NULL,
	"variables" text[] DEFAULT '{}'::text[] NOT NULL,
	"model_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"change_note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_prompt_template_versions_version_check" CHECK (version > 0)
);
--> statement-breakpoint
CREATE TABLE "ai_prompt_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"current_version" integer DEFAULT 1 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_prompt_templates_version_check" CHECK (current_version > 0)
);
--> statement-breakpoint
CREATE TABLE "ai_provider_configs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"capability" text NOT NULL,
	"provider" text NOT NULL,
	"model" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_provider_configs_capability_check" CHECK (capability IN ('stt', 'tts', 'llm'))
);
--> statement-breakpoint
CREATE TABLE "blurb_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_title" text NOT NULL,
	"author" text,
	"genre" text,
	"blurb" text NOT NULL,
	"source_content_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"submitted_by" uuid,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"review_note" text,
	"sample_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blurb_queue_status_check" CHECK (status IN ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "blurb_samples" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_title" text NOT NULL,
	"author" text,
	"genre" text,
	"blurb" text NOT NULL,
	"style" text,
	"notes" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blurb_samples_status_check" CHECK (status IN ('draft', 'reviewed', 'approved', 'published'))
);
--> statement-breakpoint
CREATE TABLE "content_blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"title" text,
	"body" text DEFAULT '' NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"published_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_blocks_status_check" CHECK (status IN ('draft', 'reviewed', 'approved', 'published'))
);
--> statement-breakpoint
CREATE TABLE "editor_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"content" text DEFAULT '' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "editor_templates_status_check" CHECK (status IN ('draft', 'reviewed', 'approved', 'published'))
);
--> statement-breakpoint
CREATE TABLE "feature_flag_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flag_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_flags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT false NOT NULL,
	"rollout_percentage" integer DEFAULT 100 NOT NULL,
	"ab_config" jsonb,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_flags_rollout_check" CHECK (rollout_percentage BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"category" text,
	"url" text,
	"storage_key" text,
	"mime_type" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resources_location_check" CHECK (url IS NOT NULL OR storage_key IS NOT NULL),
	CONSTRAINT "resources_status_check" CHECK (status IN ('draft', 'reviewed', 'approved', 'published')),
	CONSTRAINT "resources_download_count_check" CHECK (download_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "story_prompt_collection_items" (
	"collection_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_prompt_collection_items_pkey" PRIMARY KEY("collection_id","prompt_id")
);
--> statement-breakpoint
CREATE TABLE "story_prompt_collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"is_published" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_prompt_library" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prompt" text NOT NULL,
	"category" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"relationship_type" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_prompt_library_status_check" CHECK (status IN ('draft', 'reviewed', 'approved', 'published')),
	CONSTRAINT "story_prompt_library_usage_check" CHECK (usage_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "voices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"voice_id" text NOT NULL,
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"category" text,
	"gender" text,
	"accent" text,
	"language" text,
	"preview_url" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"verified" boolean DEFAULT false NOT NULL,
	"verification_token_hash" text,
	"verified_at" timestamp with time zone,
	"source" text,
	"free_eligible" boolean DEFAULT false NOT NULL,
	"converted_at" timestamp with time zone,
	"converted_user_id" uuid,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tools_adventure_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_adventure_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_adventure_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_adventure_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_adventure_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_ai_usage" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text NOT NULL,
	"content_id" uuid,
	"session_id" text,
	"user_id" uuid,
	"provider" text,
	"model" text,
	"input_tokens" integer,
	"output_tokens" integer,
	"tokens_used" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(12, 6) DEFAULT 0 NOT NULL,
	"generation_time_ms" integer,
	"success" boolean DEFAULT true NOT NULL,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_ai_usage_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator')),
	CONSTRAINT "tools_ai_usage_values_check" CHECK (tokens_used >= 0 AND cost_usd >= 0)
);
--> statement-breakpoint
CREATE TABLE "tools_analytics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text NOT NULL,
	"content_id" uuid,
	"event_type" text NOT NULL,
	"event_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"user_id" uuid,
	"session_id" text,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_analytics_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator')),
	CONSTRAINT "tools_analytics_event_type_check" CHECK (event_type IN ('view', 'share', 'export', 'response_created', 'generate'))
);
--> statement-breakpoint
CREATE TABLE "tools_book_blurbs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_book_blurbs_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_book_blurbs_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_book_blurbs_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_book_blurbs_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_bulk_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text NOT NULL,
	"requested_by" uuid,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"requested_count" integer NOT NULL,
	"completed_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"collection_id" uuid,
	"job_id" uuid,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_bulk_jobs_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator')),
	CONSTRAINT "tools_bulk_jobs_status_check" CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "tools_bulk_jobs_counts_check" CHECK (requested_count > 0 AND completed_count >= 0 AND failed_count >= 0 AND completed_count + failed_count <= requested_count)
);
--> statement-breakpoint
CREATE TABLE "tools_character_names" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_character_names_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_character_names_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_character_names_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_character_names_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_collection_items" (
	"collection_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"content_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_collection_items_pkey" PRIMARY KEY("collection_id","tool","content_id"),
	CONSTRAINT "tools_collection_items_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator'))
);
--> statement-breakpoint
CREATE TABLE "tools_collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text,
	"title" text NOT NULL,
	"description" text,
	"slug" text NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_collections_tool_check" CHECK (tool IS NULL OR tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator'))
);
--> statement-breakpoint
CREATE TABLE "tools_comedy_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_comedy_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_comedy_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_comedy_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_comedy_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_family_interview_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_family_interview_questions_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_family_interview_questions_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_family_interview_questions_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_family_interview_questions_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_first_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_first_lines_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_first_lines_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_first_lines_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_first_lines_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_flashcards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_flashcards_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_flashcards_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_flashcards_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_flashcards_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_flipbook_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flipbook_id" uuid NOT NULL,
	"page_number" integer NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"width" integer,
	"height" integer,
	"text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_flipbook_pages_page_check" CHECK (page_number > 0)
);
--> statement-breakpoint
CREATE TABLE "tools_flipbooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_flipbooks_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_flipbooks_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_flipbooks_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_flipbooks_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_horror_story_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_horror_story_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_horror_story_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_horror_story_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_horror_story_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_meet_cutes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_meet_cutes_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_meet_cutes_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_meet_cutes_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_meet_cutes_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_memory_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_memory_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_memory_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_memory_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_memory_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_mystery_plots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_mystery_plots_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_mystery_plots_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_mystery_plots_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_mystery_plots_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_plot_twists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_plot_twists_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_plot_twists_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_plot_twists_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_plot_twists_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_rate_limit_hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text DEFAULT '*' NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"session_id" text,
	"user_id" uuid,
	"ip_prefix" text,
	"limit_value" integer NOT NULL,
	"current_usage" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_rate_limit_hits_scope_check" CHECK (scope IN ('hourly', 'daily', 'responses'))
);
--> statement-breakpoint
CREATE TABLE "tools_rate_limits" (
	"key" text NOT NULL,
	"scope" text NOT NULL,
	"tool" text DEFAULT '*' NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_rate_limits_pkey" PRIMARY KEY("key","scope","tool","window_start"),
	CONSTRAINT "tools_rate_limits_scope_check" CHECK (scope IN ('hourly', 'daily', 'responses')),
	CONSTRAINT "tools_rate_limits_tool_check" CHECK (tool = '*' OR tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator')),
	CONSTRAINT "tools_rate_limits_count_check" CHECK (count >= 0)
);
--> statement-breakpoint
CREATE TABLE "tools_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text NOT NULL,
	"prompt_id" uuid NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"word_count" integer DEFAULT 0 NOT NULL,
	"character_count" integer DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"moderation_status" text DEFAULT 'pending' NOT NULL,
	"quality_score" numeric(5, 2),
	"deleted_at" timestamp with time zone,
	"delete_reason" text,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(content, ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_responses_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator')),
	CONSTRAINT "tools_responses_moderation_check" CHECK (moderation_status IN ('pending', 'approved', 'rejected')),
	CONSTRAINT "tools_responses_title_check" CHECK (char_length(title) BETWEEN 1 AND 200),
	CONSTRAINT "tools_responses_content_check" CHECK (char_length(content) BETWEEN 1 AND 50000),
	CONSTRAINT "tools_responses_counters_check" CHECK (word_count >= 0 AND character_count >= 0 AND view_count >= 0 AND like_count >= 0 AND share_count >= 0)
);
--> statement-breakpoint
CREATE TABLE "tools_romance_writing_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_romance_writing_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_romance_writing_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_romance_writing_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_romance_writing_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_saved_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tool" text DEFAULT 'story-prompts' NOT NULL,
	"content_id" uuid NOT NULL,
	"session_id" text NOT NULL,
	"user_id" uuid,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tools_saved_prompts_tool_check" CHECK (tool IN ('flashcards', 'story-prompts', 'book-blurb', 'romance-writing-prompts', 'flipbook', 'plot-twists', 'meet-cute-generator', 'family-interview-questions', 'memory-prompts', 'adventure-prompts', 'mystery-plot-generator', 'horror-story-prompts', 'comedy-prompts', 'first-line-generator', 'character-name-generator', 'story-title-generator'))
);
--> statement-breakpoint
CREATE TABLE "tools_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"is_anonymous" boolean DEFAULT true NOT NULL,
	"ip_prefix" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tools_sessions_id_check" CHECK (id ~ '^sess_[0-9]{10,13}_[A-Za-z0-9]{6,64}$')
);
--> statement-breakpoint
CREATE TABLE "tools_story_prompts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_story_prompts_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_story_prompts_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_story_prompts_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_story_prompts_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "tools_story_titles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"share_code" text NOT NULL,
	"user_id" uuid,
	"session_id" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"export_count" integer DEFAULT 0 NOT NULL,
	"seo_title" text,
	"seo_description" text,
	"keywords" text[],
	"is_ai_generated" boolean DEFAULT true NOT NULL,
	"ai_generation_prompt" text,
	"ai_confidence" numeric(3, 2) DEFAULT 0.8,
	"ai_tokens_used" integer,
	"ai_cost_usd" numeric(10, 4),
	"ai_model" text,
	"generation_time_ms" integer,
	"content" jsonb NOT NULL,
	"generation_options" jsonb,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"title" text,
	"category" text,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"share_type" text DEFAULT 'private' NOT NULL,
	"share_expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))) STORED,
	CONSTRAINT "tools_story_titles_share_type_check" CHECK (share_type IN ('public', 'private', 'expiring')),
	CONSTRAINT "tools_story_titles_ai_confidence_check" CHECK (ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1),
	CONSTRAINT "tools_story_titles_counters_check" CHECK (view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0),
	CONSTRAINT "tools_story_titles_share_expiry_check" CHECK (share_type <> 'expiring' OR share_expires_at IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_at" timestamp with time zone,
	"lease_expires_at" timestamp with time zone,
	"last_error" text,
	"result" jsonb,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "jobs_status_check" CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'dead')),
	CONSTRAINT "jobs_attempts_check" CHECK (attempts >= 0 AND max_attempts >= 1)
);
--> statement-breakpoint
ALTER TABLE "auth_refresh_tokens" ADD CONSTRAINT "auth_refresh_tokens_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_accounts_id_fk" FOREIGN KEY ("id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_data_exports" ADD CONSTRAINT "user_data_exports_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_devices" ADD CONSTRAINT "user_devices_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grammar_settings" ADD CONSTRAINT "user_grammar_settings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD CONSTRAINT "user_notification_settings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_privacy_settings" ADD CONSTRAINT "user_privacy_settings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_voice_settings" ADD CONSTRAINT "user_voice_settings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_create_flows" ADD CONSTRAINT "campaign_create_flows_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_create_flows" ADD CONSTRAINT "campaign_create_flows_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_conversions" ADD CONSTRAINT "story_conversions_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_conversions" ADD CONSTRAINT "story_conversions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_shares" ADD CONSTRAINT "story_shares_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_shares" ADD CONSTRAINT "story_shares_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_chapters" ADD CONSTRAINT "book_chapters_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_chapters" ADD CONSTRAINT "book_chapters_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_template_id_book_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."book_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_cover_template_id_cover_templates_id_fk" FOREIGN KEY ("cover_template_id") REFERENCES "public"."cover_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_interior_template_id_book_templates_id_fk" FOREIGN KEY ("interior_template_id") REFERENCES "public"."book_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_groups" ADD CONSTRAINT "family_groups_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_invitations" ADD CONSTRAINT "family_invitations_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_invitations" ADD CONSTRAINT "family_invitations_invited_by_accounts_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_invitations" ADD CONSTRAINT "family_invitations_accepted_by_accounts_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_merged_into_id_family_members_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."family_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_memories" ADD CONSTRAINT "family_memories_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_memories" ADD CONSTRAINT "family_memories_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_relationships" ADD CONSTRAINT "family_relationships_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_relationships" ADD CONSTRAINT "family_relationships_from_member_id_family_members_id_fk" FOREIGN KEY ("from_member_id") REFERENCES "public"."family_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_relationships" ADD CONSTRAINT "family_relationships_to_member_id_family_members_id_fk" FOREIGN KEY ("to_member_id") REFERENCES "public"."family_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_relationships" ADD CONSTRAINT "family_relationships_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_events" ADD CONSTRAINT "timeline_events_family_group_id_family_groups_id_fk" FOREIGN KEY ("family_group_id") REFERENCES "public"."family_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_events" ADD CONSTRAINT "timeline_events_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_reactions" ADD CONSTRAINT "timeline_reactions_event_id_timeline_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."timeline_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline_reactions" ADD CONSTRAINT "timeline_reactions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_redeemed_by_accounts_id_fk" FOREIGN KEY ("redeemed_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "achievement_progress" ADD CONSTRAINT "achievement_progress_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "achievement_progress" ADD CONSTRAINT "achievement_progress_achievement_id_fk" FOREIGN KEY ("achievement_id") REFERENCES "public"."achievement_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audio_shares" ADD CONSTRAINT "audio_shares_recording_id_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audio_shares" ADD CONSTRAINT "audio_shares_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_storyteller_id_accounts_id_fk" FOREIGN KEY ("storyteller_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_jobs" ADD CONSTRAINT "export_jobs_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_records" ADD CONSTRAINT "consent_records_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_flags" ADD CONSTRAINT "support_flags_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_flags" ADD CONSTRAINT "support_flags_resolved_by_accounts_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage_logs" ADD CONSTRAINT "ai_usage_logs_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_ab_tests" ADD CONSTRAINT "email_ab_tests_base_template_id_email_templates_id_fk" FOREIGN KEY ("base_template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_ab_tests" ADD CONSTRAINT "email_ab_tests_variant_template_id_email_templates_id_fk" FOREIGN KEY ("variant_template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_ab_tests" ADD CONSTRAINT "email_ab_tests_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_analytics" ADD CONSTRAINT "email_analytics_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_automation_rules" ADD CONSTRAINT "email_automation_rules_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_delivery_events" ADD CONSTRAINT "email_delivery_events_queue_id_email_send_queue_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."email_send_queue"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_send_queue" ADD CONSTRAINT "email_send_queue_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_send_queue" ADD CONSTRAINT "email_send_queue_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_send_queue" ADD CONSTRAINT "email_send_queue_ab_test_id_email_ab_tests_id_fk" FOREIGN KEY ("ab_test_id") REFERENCES "public"."email_ab_tests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD CONSTRAINT "email_suppressions_source_event_id_email_delivery_events_id_fk" FOREIGN KEY ("source_event_id") REFERENCES "public"."email_delivery_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_template_versions" ADD CONSTRAINT "email_template_versions_template_id_email_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."email_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_template_versions" ADD CONSTRAINT "email_template_versions_changed_by_accounts_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_email_preferences" ADD CONSTRAINT "user_email_preferences_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_impersonated_user_id_accounts_id_fk" FOREIGN KEY ("impersonated_user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_impersonations" ADD CONSTRAINT "admin_impersonations_admin_id_accounts_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_impersonations" ADD CONSTRAINT "admin_impersonations_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_impersonations" ADD CONSTRAINT "admin_impersonations_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_prompt_template_versions" ADD CONSTRAINT "ai_prompt_template_versions_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_prompt_template_versions" ADD CONSTRAINT "ai_prompt_template_versions_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."ai_prompt_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_prompt_templates" ADD CONSTRAINT "ai_prompt_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_provider_configs" ADD CONSTRAINT "ai_provider_configs_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blurb_queue" ADD CONSTRAINT "blurb_queue_submitted_by_accounts_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blurb_queue" ADD CONSTRAINT "blurb_queue_reviewed_by_accounts_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blurb_queue" ADD CONSTRAINT "blurb_queue_sample_id_blurb_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."blurb_samples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blurb_samples" ADD CONSTRAINT "blurb_samples_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_blocks" ADD CONSTRAINT "content_blocks_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "content_blocks" ADD CONSTRAINT "content_blocks_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "editor_templates" ADD CONSTRAINT "editor_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_flag_overrides" ADD CONSTRAINT "feature_flag_overrides_flag_id_feature_flags_id_fk" FOREIGN KEY ("flag_id") REFERENCES "public"."feature_flags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_flag_overrides" ADD CONSTRAINT "feature_flag_overrides_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_flag_overrides" ADD CONSTRAINT "feature_flag_overrides_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_flags" ADD CONSTRAINT "feature_flags_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_prompt_collection_items" ADD CONSTRAINT "story_prompt_collection_items_collection_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."story_prompt_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_prompt_collection_items" ADD CONSTRAINT "story_prompt_collection_items_prompt_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."story_prompt_library"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_prompt_collections" ADD CONSTRAINT "story_prompt_collections_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_prompt_library" ADD CONSTRAINT "story_prompt_library_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist" ADD CONSTRAINT "waitlist_converted_user_id_accounts_id_fk" FOREIGN KEY ("converted_user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_adventure_prompts" ADD CONSTRAINT "tools_adventure_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_ai_usage" ADD CONSTRAINT "tools_ai_usage_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_analytics" ADD CONSTRAINT "tools_analytics_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_book_blurbs" ADD CONSTRAINT "tools_book_blurbs_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_bulk_jobs" ADD CONSTRAINT "tools_bulk_jobs_requested_by_accounts_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_bulk_jobs" ADD CONSTRAINT "tools_bulk_jobs_collection_id_tools_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."tools_collections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_bulk_jobs" ADD CONSTRAINT "tools_bulk_jobs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_character_names" ADD CONSTRAINT "tools_character_names_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_collection_items" ADD CONSTRAINT "tools_collection_items_collection_id_tools_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."tools_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_collections" ADD CONSTRAINT "tools_collections_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_comedy_prompts" ADD CONSTRAINT "tools_comedy_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_family_interview_questions" ADD CONSTRAINT "tools_family_interview_questions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_first_lines" ADD CONSTRAINT "tools_first_lines_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_flashcards" ADD CONSTRAINT "tools_flashcards_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_flipbook_pages" ADD CONSTRAINT "tools_flipbook_pages_flipbook_id_tools_flipbooks_id_fk" FOREIGN KEY ("flipbook_id") REFERENCES "public"."tools_flipbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_flipbooks" ADD CONSTRAINT "tools_flipbooks_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_horror_story_prompts" ADD CONSTRAINT "tools_horror_story_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_meet_cutes" ADD CONSTRAINT "tools_meet_cutes_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_memory_prompts" ADD CONSTRAINT "tools_memory_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_mystery_plots" ADD CONSTRAINT "tools_mystery_plots_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_plot_twists" ADD CONSTRAINT "tools_plot_twists_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_rate_limit_hits" ADD CONSTRAINT "tools_rate_limit_hits_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_responses" ADD CONSTRAINT "tools_responses_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_romance_writing_prompts" ADD CONSTRAINT "tools_romance_writing_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_saved_prompts" ADD CONSTRAINT "tools_saved_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_sessions" ADD CONSTRAINT "tools_sessions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_story_prompts" ADD CONSTRAINT "tools_story_prompts_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools_story_titles" ADD CONSTRAINT "tools_story_titles_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_refresh_tokens_hash_key" ON "auth_refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_refresh_tokens_session_id_idx" ON "auth_refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_id_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profiles_payment_customer_id_idx" ON "profiles" USING btree ("payment_customer_id");--> statement-breakpoint
CREATE INDEX "user_data_exports_user_id_created_idx" ON "user_data_exports" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_devices_user_id_idx" ON "user_devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_devices_push_token_key" ON "user_devices" USING btree ("push_token");--> statement-breakpoint
CREATE INDEX "campaign_create_flows_user_id_idx" ON "campaign_create_flows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campaigns_user_id_created_idx" ON "campaigns" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recordings_user_id_created_idx" ON "recordings" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recordings_user_media_created_idx" ON "recordings" USING btree ("user_id","media_type","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recordings_campaign_id_idx" ON "recordings" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "recordings_story_id_idx" ON "recordings" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "recordings_trial_session_id_idx" ON "recordings" USING btree ("trial_session_id") WHERE trial_session_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "recordings_tags_idx" ON "recordings" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "stories_user_id_created_idx" ON "stories" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stories_campaign_id_created_idx" ON "stories" USING btree ("campaign_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "stories_book_id_idx" ON "stories" USING btree ("book_id");--> statement-breakpoint
CREATE UNIQUE INDEX "story_conversions_source_key" ON "story_conversions" USING btree ("source_type","source_id");--> statement-breakpoint
CREATE INDEX "story_conversions_story_id_idx" ON "story_conversions" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "story_conversions_user_id_idx" ON "story_conversions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "story_shares_share_id_key" ON "story_shares" USING btree ("share_id");--> statement-breakpoint
CREATE INDEX "story_shares_story_id_idx" ON "story_shares" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "story_shares_created_by_idx" ON "story_shares" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "conversation_messages_conversation_created_idx" ON "conversation_messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_user_id_created_idx" ON "conversations" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "conversations_campaign_id_idx" ON "conversations" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_user_session_key" ON "conversations" USING btree ("user_id","session_id");--> statement-breakpoint
CREATE INDEX "conversations_tags_idx" ON "conversations" USING gin ("tags");--> statement-breakpoint
CREATE UNIQUE INDEX "book_chapters_book_story_key" ON "book_chapters" USING btree ("book_id","story_id");--> statement-breakpoint
CREATE INDEX "book_chapters_book_number_idx" ON "book_chapters" USING btree ("book_id","chapter_number");--> statement-breakpoint
CREATE INDEX "book_chapters_story_id_idx" ON "book_chapters" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "book_templates_category_idx" ON "book_templates" USING btree ("category");--> statement-breakpoint
CREATE INDEX "book_templates_relationship_type_idx" ON "book_templates" USING btree ("relationship_type");--> statement-breakpoint
CREATE INDEX "books_user_id_created_idx" ON "books" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "books_campaign_id_idx" ON "books" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "books_family_group_id_idx" ON "books" USING btree ("family_group_id");--> statement-breakpoint
CREATE INDEX "books_template_id_idx" ON "books" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "books_cover_template_id_idx" ON "books" USING btree ("cover_template_id");--> statement-breakpoint
CREATE INDEX "books_interior_template_id_idx" ON "books" USING btree ("interior_template_id");--> statement-breakpoint
CREATE INDEX "cover_templates_category_idx" ON "cover_templates" USING btree ("category");--> statement-breakpoint
CREATE INDEX "cover_templates_relationship_type_idx" ON "cover_templates" USING btree ("relationship_type");--> statement-breakpoint
CREATE INDEX "family_groups_created_by_idx" ON "family_groups" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "family_invitations_token_hash_key" ON "family_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "family_invitations_group_email_pending_key" ON "family_invitations" USING btree ("family_group_id","email") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "family_invitations_group_status_idx" ON "family_invitations" USING btree ("family_group_id","status");--> statement-breakpoint
CREATE INDEX "family_invitations_email_idx" ON "family_invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "family_invitations_invited_by_idx" ON "family_invitations" USING btree ("invited_by");--> statement-breakpoint
CREATE INDEX "family_invitations_accepted_by_idx" ON "family_invitations" USING btree ("accepted_by");--> statement-breakpoint
CREATE UNIQUE INDEX "family_members_group_user_key" ON "family_members" USING btree ("family_group_id","user_id");--> statement-breakpoint
CREATE INDEX "family_members_user_id_idx" ON "family_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "family_members_merged_into_id_idx" ON "family_members" USING btree ("merged_into_id");--> statement-breakpoint
CREATE INDEX "family_memories_group_created_idx" ON "family_memories" USING btree ("family_group_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "family_memories_created_by_idx" ON "family_memories" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "family_relationships_from_to_type_key" ON "family_relationships" USING btree ("from_member_id","to_member_id","relationship_type");--> statement-breakpoint
CREATE INDEX "family_relationships_group_id_idx" ON "family_relationships" USING btree ("family_group_id");--> statement-breakpoint
CREATE INDEX "family_relationships_to_member_id_idx" ON "family_relationships" USING btree ("to_member_id");--> statement-breakpoint
CREATE INDEX "family_relationships_created_by_idx" ON "family_relationships" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "timeline_events_group_occurred_idx" ON "timeline_events" USING btree ("family_group_id","occurred_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "timeline_events_actor_occurred_idx" ON "timeline_events" USING btree ("actor_id","occurred_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "timeline_events_subject_idx" ON "timeline_events" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "timeline_reactions_event_user_key" ON "timeline_reactions" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE INDEX "timeline_reactions_user_id_idx" ON "timeline_reactions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_code_hash_key" ON "gifts" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "gifts_payment_reference_key" ON "gifts" USING btree ("payment_reference");--> statement-breakpoint
CREATE INDEX "gifts_user_id_created_idx" ON "gifts" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "gifts_redeemed_by_idx" ON "gifts" USING btree ("redeemed_by");--> statement-breakpoint
CREATE INDEX "gifts_created_at_idx" ON "gifts" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "imports_user_id_created_idx" ON "imports" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "imports_story_id_idx" ON "imports" USING btree ("story_id");--> statement-breakpoint
CREATE UNIQUE INDEX "achievement_progress_user_achievement_key" ON "achievement_progress" USING btree ("user_id","achievement_id");--> statement-breakpoint
CREATE INDEX "achievement_progress_achievement_id_idx" ON "achievement_progress" USING btree ("achievement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "audio_shares_token_key" ON "audio_shares" USING btree ("token");--> statement-breakpoint
CREATE INDEX "audio_shares_recording_id_idx" ON "audio_shares" USING btree ("recording_id");--> statement-breakpoint
CREATE INDEX "audio_shares_created_by_idx" ON "audio_shares" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "images_user_id_created_idx" ON "images" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "images_story_id_idx" ON "images" USING btree ("story_id");--> statement-breakpoint
CREATE INDEX "export_jobs_book_kind_status_completed_idx" ON "export_jobs" USING btree ("book_id","kind","status","completed_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "export_jobs_user_id_created_idx" ON "export_jobs" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "export_jobs_storyteller_id_idx" ON "export_jobs" USING btree ("storyteller_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_provider_invoice_id_key" ON "invoices" USING btree ("provider_invoice_id");--> statement-breakpoint
CREATE INDEX "invoices_user_id_issued_idx" ON "invoices" USING btree ("user_id","issued_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "consent_records_user_id_created_idx" ON "consent_records" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "support_flags_status_created_idx" ON "support_flags" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "support_flags_content_idx" ON "support_flags" USING btree ("content_type","content_id");--> statement-breakpoint
CREATE INDEX "support_flags_user_id_idx" ON "support_flags" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "support_flags_resolved_by_idx" ON "support_flags" USING btree ("resolved_by");--> statement-breakpoint
CREATE INDEX "ai_usage_logs_user_id_created_idx" ON "ai_usage_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "ai_usage_logs_created_at_idx" ON "ai_usage_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "email_ab_tests_base_template_id_idx" ON "email_ab_tests" USING btree ("base_template_id");--> statement-breakpoint
CREATE INDEX "email_ab_tests_variant_template_id_idx" ON "email_ab_tests" USING btree ("variant_template_id");--> statement-breakpoint
CREATE INDEX "email_ab_tests_status_created_idx" ON "email_ab_tests" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_ab_tests_created_by_idx" ON "email_ab_tests" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "email_analytics_template_date_key" ON "email_analytics" USING btree ("template_id","date");--> statement-breakpoint
CREATE INDEX "email_analytics_date_idx" ON "email_analytics" USING btree ("date");--> statement-breakpoint
CREATE INDEX "email_automation_rules_event_idx" ON "email_automation_rules" USING btree ("event","priority" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_automation_rules_template_id_idx" ON "email_automation_rules" USING btree ("template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_delivery_events_svix_id_key" ON "email_delivery_events" USING btree ("svix_id");--> statement-breakpoint
CREATE INDEX "email_delivery_events_queue_id_idx" ON "email_delivery_events" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "email_delivery_events_provider_message_id_idx" ON "email_delivery_events" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "email_delivery_events_received_at_idx" ON "email_delivery_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "email_send_queue_pending_scheduled_idx" ON "email_send_queue" USING btree ("scheduled_for") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "email_send_queue_status_locked_idx" ON "email_send_queue" USING btree ("status","locked_at");--> statement-breakpoint
CREATE INDEX "email_send_queue_user_id_created_idx" ON "email_send_queue" USING btree ("user_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_send_queue_template_id_created_idx" ON "email_send_queue" USING btree ("template_id","created_at");--> statement-breakpoint
CREATE INDEX "email_send_queue_created_at_idx" ON "email_send_queue" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "email_send_queue_ab_test_id_idx" ON "email_send_queue" USING btree ("ab_test_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_send_queue_provider_message_id_key" ON "email_send_queue" USING btree ("provider_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_send_queue_idempotency_key_key" ON "email_send_queue" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "email_suppressions_source_event_id_idx" ON "email_suppressions" USING btree ("source_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_template_versions_template_version_key" ON "email_template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE INDEX "email_template_versions_changed_by_idx" ON "email_template_versions" USING btree ("changed_by");--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_name_key" ON "email_templates" USING btree ("name");--> statement-breakpoint
CREATE INDEX "email_templates_category_idx" ON "email_templates" USING btree ("category");--> statement-breakpoint
CREATE INDEX "email_templates_trigger_events_idx" ON "email_templates" USING gin ("trigger_events");--> statement-breakpoint
CREATE INDEX "email_templates_created_by_idx" ON "email_templates" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "email_templates_updated_by_idx" ON "email_templates" USING btree ("updated_by");--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_created_idx" ON "admin_audit_log" USING btree ("actor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "admin_audit_log_target_idx" ON "admin_audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_impersonated_user_id_idx" ON "admin_audit_log" USING btree ("impersonated_user_id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_at_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "admin_impersonations_admin_id_idx" ON "admin_impersonations" USING btree ("admin_id","started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "admin_impersonations_user_id_idx" ON "admin_impersonations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "admin_impersonations_session_id_idx" ON "admin_impersonations" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_prompt_template_versions_template_version_key" ON "ai_prompt_template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE INDEX "ai_prompt_template_versions_created_by_idx" ON "ai_prompt_template_versions" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_prompt_templates_key_key" ON "ai_prompt_templates" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ai_prompt_templates_category_idx" ON "ai_prompt_templates" USING btree ("category");--> statement-breakpoint
CREATE INDEX "ai_prompt_templates_created_by_idx" ON "ai_prompt_templates" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "ai_provider_configs_capability_priority_idx" ON "ai_provider_configs" USING btree ("capability","priority");--> statement-breakpoint
CREATE INDEX "ai_provider_configs_updated_by_idx" ON "ai_provider_configs" USING btree ("updated_by");--> statement-breakpoint
CREATE INDEX "blurb_queue_status_created_idx" ON "blurb_queue" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "blurb_queue_submitted_by_idx" ON "blurb_queue" USING btree ("submitted_by");--> statement-breakpoint
CREATE INDEX "blurb_queue_reviewed_by_idx" ON "blurb_queue" USING btree ("reviewed_by");--> statement-breakpoint
CREATE INDEX "blurb_queue_sample_id_idx" ON "blurb_queue" USING btree ("sample_id");--> statement-breakpoint
CREATE INDEX "blurb_samples_genre_idx" ON "blurb_samples" USING btree ("genre");--> statement-breakpoint
CREATE INDEX "blurb_samples_created_by_idx" ON "blurb_samples" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "content_blocks_key_key" ON "content_blocks" USING btree ("key");--> statement-breakpoint
CREATE INDEX "content_blocks_status_idx" ON "content_blocks" USING btree ("status");--> statement-breakpoint
CREATE INDEX "content_blocks_created_by_idx" ON "content_blocks" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "content_blocks_updated_by_idx" ON "content_blocks" USING btree ("updated_by");--> statement-breakpoint
CREATE INDEX "editor_templates_category_idx" ON "editor_templates" USING btree ("category");--> statement-breakpoint
CREATE INDEX "editor_templates_created_by_idx" ON "editor_templates" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "feature_flag_overrides_flag_user_key" ON "feature_flag_overrides" USING btree ("flag_id","user_id");--> statement-breakpoint
CREATE INDEX "feature_flag_overrides_user_id_idx" ON "feature_flag_overrides" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "feature_flag_overrides_created_by_idx" ON "feature_flag_overrides" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "feature_flags_key_key" ON "feature_flags" USING btree ("key");--> statement-breakpoint
CREATE INDEX "feature_flags_updated_by_idx" ON "feature_flags" USING btree ("updated_by");--> statement-breakpoint
CREATE INDEX "resources_category_idx" ON "resources" USING btree ("category");--> statement-breakpoint
CREATE INDEX "resources_created_by_idx" ON "resources" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "story_prompt_collection_items_prompt_id_idx" ON "story_prompt_collection_items" USING btree ("prompt_id");--> statement-breakpoint
CREATE UNIQUE INDEX "story_prompt_collections_slug_key" ON "story_prompt_collections" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "story_prompt_collections_created_by_idx" ON "story_prompt_collections" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "story_prompt_library_status_category_idx" ON "story_prompt_library" USING btree ("status","category");--> statement-breakpoint
CREATE INDEX "story_prompt_library_tags_idx" ON "story_prompt_library" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "story_prompt_library_created_by_idx" ON "story_prompt_library" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "voices_provider_voice_id_key" ON "voices" USING btree ("provider","voice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_email_key" ON "waitlist" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_verification_token_hash_key" ON "waitlist" USING btree ("verification_token_hash");--> statement-breakpoint
CREATE INDEX "waitlist_converted_user_id_idx" ON "waitlist" USING btree ("converted_user_id");--> statement-breakpoint
CREATE INDEX "waitlist_created_at_idx" ON "waitlist" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_adventure_prompts_share_code_key" ON "tools_adventure_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_public_created_idx" ON "tools_adventure_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_session_created_idx" ON "tools_adventure_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_user_id_idx" ON "tools_adventure_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_featured_idx" ON "tools_adventure_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_category_idx" ON "tools_adventure_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_expires_at_idx" ON "tools_adventure_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_adventure_prompts_search_idx" ON "tools_adventure_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tools_ai_usage_tool_created_idx" ON "tools_ai_usage" USING btree ("tool","created_at");--> statement-breakpoint
CREATE INDEX "tools_ai_usage_created_at_idx" ON "tools_ai_usage" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tools_ai_usage_user_id_idx" ON "tools_ai_usage" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_analytics_content_created_idx" ON "tools_analytics" USING btree ("tool","content_id","created_at");--> statement-breakpoint
CREATE INDEX "tools_analytics_created_at_idx" ON "tools_analytics" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tools_analytics_user_id_idx" ON "tools_analytics" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_book_blurbs_share_code_key" ON "tools_book_blurbs" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_public_created_idx" ON "tools_book_blurbs" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_session_created_idx" ON "tools_book_blurbs" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_user_id_idx" ON "tools_book_blurbs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_featured_idx" ON "tools_book_blurbs" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_category_idx" ON "tools_book_blurbs" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_expires_at_idx" ON "tools_book_blurbs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_book_blurbs_search_idx" ON "tools_book_blurbs" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tools_bulk_jobs_tool_created_idx" ON "tools_bulk_jobs" USING btree ("tool","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_bulk_jobs_requested_by_idx" ON "tools_bulk_jobs" USING btree ("requested_by");--> statement-breakpoint
CREATE INDEX "tools_bulk_jobs_collection_id_idx" ON "tools_bulk_jobs" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "tools_bulk_jobs_job_id_idx" ON "tools_bulk_jobs" USING btree ("job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_character_names_share_code_key" ON "tools_character_names" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_character_names_public_created_idx" ON "tools_character_names" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_character_names_session_created_idx" ON "tools_character_names" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_character_names_user_id_idx" ON "tools_character_names" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_character_names_featured_idx" ON "tools_character_names" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_character_names_category_idx" ON "tools_character_names" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_character_names_expires_at_idx" ON "tools_character_names" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_character_names_search_idx" ON "tools_character_names" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tools_collection_items_content_idx" ON "tools_collection_items" USING btree ("tool","content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_collections_slug_key" ON "tools_collections" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "tools_collections_tool_idx" ON "tools_collections" USING btree ("tool");--> statement-breakpoint
CREATE INDEX "tools_collections_created_by_idx" ON "tools_collections" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_comedy_prompts_share_code_key" ON "tools_comedy_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_public_created_idx" ON "tools_comedy_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_session_created_idx" ON "tools_comedy_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_user_id_idx" ON "tools_comedy_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_featured_idx" ON "tools_comedy_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_category_idx" ON "tools_comedy_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_expires_at_idx" ON "tools_comedy_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_comedy_prompts_search_idx" ON "tools_comedy_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_family_interview_questions_share_code_key" ON "tools_family_interview_questions" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_public_created_idx" ON "tools_family_interview_questions" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_session_created_idx" ON "tools_family_interview_questions" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_user_id_idx" ON "tools_family_interview_questions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_featured_idx" ON "tools_family_interview_questions" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_category_idx" ON "tools_family_interview_questions" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_expires_at_idx" ON "tools_family_interview_questions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_family_interview_questions_search_idx" ON "tools_family_interview_questions" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_first_lines_share_code_key" ON "tools_first_lines" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_first_lines_public_created_idx" ON "tools_first_lines" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_first_lines_session_created_idx" ON "tools_first_lines" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_first_lines_user_id_idx" ON "tools_first_lines" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_first_lines_featured_idx" ON "tools_first_lines" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_first_lines_category_idx" ON "tools_first_lines" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_first_lines_expires_at_idx" ON "tools_first_lines" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_first_lines_search_idx" ON "tools_first_lines" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_flashcards_share_code_key" ON "tools_flashcards" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_flashcards_public_created_idx" ON "tools_flashcards" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_flashcards_session_created_idx" ON "tools_flashcards" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_flashcards_user_id_idx" ON "tools_flashcards" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_flashcards_featured_idx" ON "tools_flashcards" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_flashcards_category_idx" ON "tools_flashcards" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_flashcards_expires_at_idx" ON "tools_flashcards" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_flashcards_search_idx" ON "tools_flashcards" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_flipbook_pages_flipbook_page_key" ON "tools_flipbook_pages" USING btree ("flipbook_id","page_number");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_flipbooks_share_code_key" ON "tools_flipbooks" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_flipbooks_public_created_idx" ON "tools_flipbooks" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_flipbooks_session_created_idx" ON "tools_flipbooks" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_flipbooks_user_id_idx" ON "tools_flipbooks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_flipbooks_featured_idx" ON "tools_flipbooks" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_flipbooks_category_idx" ON "tools_flipbooks" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_flipbooks_expires_at_idx" ON "tools_flipbooks" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_flipbooks_search_idx" ON "tools_flipbooks" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_horror_story_prompts_share_code_key" ON "tools_horror_story_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_public_created_idx" ON "tools_horror_story_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_session_created_idx" ON "tools_horror_story_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_user_id_idx" ON "tools_horror_story_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_featured_idx" ON "tools_horror_story_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_category_idx" ON "tools_horror_story_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_expires_at_idx" ON "tools_horror_story_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_horror_story_prompts_search_idx" ON "tools_horror_story_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_meet_cutes_share_code_key" ON "tools_meet_cutes" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_public_created_idx" ON "tools_meet_cutes" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_session_created_idx" ON "tools_meet_cutes" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_user_id_idx" ON "tools_meet_cutes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_featured_idx" ON "tools_meet_cutes" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_category_idx" ON "tools_meet_cutes" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_expires_at_idx" ON "tools_meet_cutes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_meet_cutes_search_idx" ON "tools_meet_cutes" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_memory_prompts_share_code_key" ON "tools_memory_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_public_created_idx" ON "tools_memory_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_session_created_idx" ON "tools_memory_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_user_id_idx" ON "tools_memory_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_featured_idx" ON "tools_memory_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_category_idx" ON "tools_memory_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_expires_at_idx" ON "tools_memory_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_memory_prompts_search_idx" ON "tools_memory_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_mystery_plots_share_code_key" ON "tools_mystery_plots" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_public_created_idx" ON "tools_mystery_plots" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_session_created_idx" ON "tools_mystery_plots" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_user_id_idx" ON "tools_mystery_plots" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_featured_idx" ON "tools_mystery_plots" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_category_idx" ON "tools_mystery_plots" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_expires_at_idx" ON "tools_mystery_plots" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_mystery_plots_search_idx" ON "tools_mystery_plots" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_plot_twists_share_code_key" ON "tools_plot_twists" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_plot_twists_public_created_idx" ON "tools_plot_twists" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_plot_twists_session_created_idx" ON "tools_plot_twists" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_plot_twists_user_id_idx" ON "tools_plot_twists" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_plot_twists_featured_idx" ON "tools_plot_twists" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_plot_twists_category_idx" ON "tools_plot_twists" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_plot_twists_expires_at_idx" ON "tools_plot_twists" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_plot_twists_search_idx" ON "tools_plot_twists" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "tools_rate_limit_hits_tool_created_idx" ON "tools_rate_limit_hits" USING btree ("tool","created_at");--> statement-breakpoint
CREATE INDEX "tools_rate_limit_hits_created_at_idx" ON "tools_rate_limit_hits" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tools_rate_limit_hits_user_id_idx" ON "tools_rate_limit_hits" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_rate_limits_window_start_idx" ON "tools_rate_limits" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "tools_responses_tool_prompt_created_idx" ON "tools_responses" USING btree ("tool","prompt_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_responses_session_created_idx" ON "tools_responses" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_responses_user_id_idx" ON "tools_responses" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_responses_moderation_created_idx" ON "tools_responses" USING btree ("moderation_status","created_at");--> statement-breakpoint
CREATE INDEX "tools_responses_search_idx" ON "tools_responses" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_romance_writing_prompts_share_code_key" ON "tools_romance_writing_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_public_created_idx" ON "tools_romance_writing_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_session_created_idx" ON "tools_romance_writing_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_user_id_idx" ON "tools_romance_writing_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_featured_idx" ON "tools_romance_writing_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_category_idx" ON "tools_romance_writing_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_expires_at_idx" ON "tools_romance_writing_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_romance_writing_prompts_search_idx" ON "tools_romance_writing_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_saved_prompts_session_content_key" ON "tools_saved_prompts" USING btree ("session_id","tool","content_id");--> statement-breakpoint
CREATE INDEX "tools_saved_prompts_user_id_idx" ON "tools_saved_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_saved_prompts_content_idx" ON "tools_saved_prompts" USING btree ("tool","content_id");--> statement-breakpoint
CREATE INDEX "tools_sessions_user_id_idx" ON "tools_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_sessions_expires_at_idx" ON "tools_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_story_prompts_share_code_key" ON "tools_story_prompts" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_story_prompts_public_created_idx" ON "tools_story_prompts" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_story_prompts_session_created_idx" ON "tools_story_prompts" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_story_prompts_user_id_idx" ON "tools_story_prompts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_story_prompts_featured_idx" ON "tools_story_prompts" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_story_prompts_category_idx" ON "tools_story_prompts" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_story_prompts_expires_at_idx" ON "tools_story_prompts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_story_prompts_search_idx" ON "tools_story_prompts" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_story_titles_share_code_key" ON "tools_story_titles" USING btree ("share_code");--> statement-breakpoint
CREATE INDEX "tools_story_titles_public_created_idx" ON "tools_story_titles" USING btree ("is_public","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_story_titles_session_created_idx" ON "tools_story_titles" USING btree ("session_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tools_story_titles_user_id_idx" ON "tools_story_titles" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tools_story_titles_featured_idx" ON "tools_story_titles" USING btree ("is_featured");--> statement-breakpoint
CREATE INDEX "tools_story_titles_category_idx" ON "tools_story_titles" USING btree ("category");--> statement-breakpoint
CREATE INDEX "tools_story_titles_expires_at_idx" ON "tools_story_titles" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "tools_story_titles_search_idx" ON "tools_story_titles" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "jobs_queue_run_at_queued_idx" ON "jobs" USING btree ("queue","run_at") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_status_lease_idx" ON "jobs" USING btree ("status","lease_expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key_active_key" ON "jobs" USING btree ("dedupe_key") WHERE status IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_completed_at_idx" ON "jobs" USING btree ("completed_at");