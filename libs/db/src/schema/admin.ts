// Records behind the admin application (spec 001 "Admin resources"): feature flags, AI prompt templates
// and providers, voices, editorial content, the story prompt library, blurb samples, downloadable
// resources, the waitlist, impersonation and the audit log.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, authSessions } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** Moderation status values of spec 001 "Admin resources", shared by every editorial record. */
export const CONTENT_STATUSES = ['draft', 'reviewed', 'approved', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

const createdBy = () => uuid('created_by').references(() => accounts.id, { onDelete: 'set null' });

/** A/B configuration of a flag: variants with weights; users are bucketed by a hash of (key, user id). */
export interface FlagAbConfig {
  variants: { name: string; weight: number; payload?: unknown }[];
  [key: string]: unknown;
}

export const featureFlags = pgTable(
  'feature_flags',
  {
    id: id(),
    /** Stable name code checks, e.g. ai_story_conversion. */
    key: text('key').notNull(),
    description: text('description'),
    /** Global toggle; off means off for everyone without an override. */
    enabled: boolean('enabled').notNull().default(false),
    /** Gradual rollout: a user is in when hash(key, user id) mod 100 < rollout_percentage. */
    rolloutPercentage: integer('rollout_percentage').notNull().default(100),
    abConfig: jsonb('ab_config').$type<FlagAbConfig>(),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('feature_flags_key_key').on(t.key),
    index('feature_flags_updated_by_idx').on(t.updatedBy),
    check('feature_flags_rollout_check', sql`rollout_percentage BETWEEN 0 AND 100`),
  ],
);

/** Per-user override that beats the global toggle and the rollout. */
export const featureFlagOverrides = pgTable(
  'feature_flag_overrides',
  {
    id: id(),
    flagId: uuid('flag_id')
      .notNull()
      .references(() => featureFlags.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    reason: text('reason'),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('feature_flag_overrides_flag_user_key').on(t.flagId, t.userId),
    index('feature_flag_overrides_user_id_idx').on(t.userId),
    index('feature_flag_overrides_created_by_idx').on(t.createdBy),
  ],
);

/** Prompts the AI helpers use, editable by admins; the text lives in the versions table. */
export const aiPromptTemplates = pgTable(
  'ai_prompt_templates',
  {
    id: id(),
    /** Name the code loads the prompt by, e.g. story_conversion.generate. */
    key: text('key').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    category: text('category'),
    /** The version in use; history keeps the others so a bad edit can be rolled back. */
    currentVersion: integer('current_version').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('ai_prompt_templates_key_key').on(t.key),
    index('ai_prompt_templates_category_idx').on(t.category),
    index('ai_prompt_templates_created_by_idx').on(t.createdBy),
    check('ai_prompt_templates_version_check', sql`current_version > 0`),
  ],
);

export const aiPromptTemplateVersions = pgTable(
  'ai_prompt_template_versions',
  {
    id: id(),
    templateId: uuid('template_id').notNull(),
    version: integer('version').notNull(),
    /** The prompt text with {{variable}} placeholders. */
    content: text('content').notNull(),
    /** Names of the placeholders the caller must fill. */
    variables: text('variables').array().notNull().default(sql`'{}'::text[]`),
    /** Model settings this version was tuned for (model, temperature, max tokens). */
    modelSettings: jsonb('model_settings').$type<Record<string, unknown>>().notNull().default({}),
    changeNote: text('change_note'),
    createdBy: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    // Foreign keys named by hand where the generated name would pass PostgreSQL's 63-character limit.
    foreignKey({ name: 'ai_prompt_template_versions_template_id_fk', columns: [t.templateId], foreignColumns: [aiPromptTemplates.id] })
      .onDelete('cascade'),
    uniqueIndex('ai_prompt_template_versions_template_version_key').on(t.templateId, t.version),
    index('ai_prompt_template_versions_created_by_idx').on(t.createdBy),
    check('ai_prompt_template_versions_version_check', sql`version > 0`),
  ],
);

/** Text-to-speech voices offered to users (GET /api/tts/{tts_provider}), synced from providers. */
export const voices = pgTable(
  'voices',
  {
    id: id(),
    /** The provider's own voice id. */
    voiceId: text('voice_id').notNull(),
    /** elevenlabs or local (CONTRACTS §4). */
    provider: text('provider').notNull(),
    name: text('name').notNull(),
    category: text('category'),
    gender: text('gender'),
    accent: text('accent'),
    language: text('language'),
    previewUrl: text('preview_url'),
    /** Default voice_settings (stability, similarity_boost, style) for this voice. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('voices_provider_voice_id_key').on(t.provider, t.voiceId)],
);

export const AI_CAPABILITIES = ['stt', 'tts', 'llm'] as const;
export type AiCapability = (typeof AI_CAPABILITIES)[number];

/**
 * Which provider and model serve each capability, in priority order (lowest first). Admin changes take
 * effect without a redeploy; credentials stay in the environment, never in settings.
 */
export const aiProviderConfigs = pgTable(
  'ai_provider_configs',
  {
    id: id(),
    capability: text('capability').$type<AiCapability>().notNull(),
    provider: text('provider').notNull(),
    model: text('model'),
    isActive: boolean('is_active').notNull().default(true),
    priority: integer('priority').notNull().default(0),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('ai_provider_configs_capability_priority_idx').on(t.capability, t.priority),
    index('ai_provider_configs_updated_by_idx').on(t.updatedBy),
    check('ai_provider_configs_capability_check', oneOf('capability', AI_CAPABILITIES)),
  ],
);

/** Editable site copy (banners, help text, onboarding screens), keyed for the app to fetch. */
export const contentBlocks = pgTable(
  'content_blocks',
  {
    id: id(),
    key: text('key').notNull(),
    title: text('title'),
    body: text('body').notNull().default(''),
    locale: text('locale').notNull().default('en'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: createdBy(),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('content_blocks_key_key').on(t.key),
    index('content_blocks_status_idx').on(t.status),
    index('content_blocks_created_by_idx').on(t.createdBy),
    index('content_blocks_updated_by_idx').on(t.updatedBy),
    check('content_blocks_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

/** Starting documents for the story editor (dashboard editor/templates). */
export const editorTemplates = pgTable(
  'editor_templates',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    category: text('category'),
    /** Editor HTML the new story starts from. */
    content: text('content').notNull().default(''),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('editor_templates_category_idx').on(t.category),
    index('editor_templates_created_by_idx').on(t.createdBy),
    check('editor_templates_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

/** Curated story prompts (dashboard tools/story-prompts/library), used by campaigns and families. */
export const storyPromptLibrary = pgTable(
  'story_prompt_library',
  {
    id: id(),
    prompt: text('prompt').notNull(),
    category: text('category'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Who the prompt suits (grandparent, parent, ...), null for any. */
    relationshipType: text('relationship_type'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    usageCount: integer('usage_count').notNull().default(0),
    /** Where it came from: manual, ai, tools (a promoted free-tool prompt). */
    source: text('source').notNull().default('manual'),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('story_prompt_library_status_category_idx').on(t.status, t.category),
    index('story_prompt_library_tags_idx').using('gin', t.tags),
    index('story_prompt_library_created_by_idx').on(t.createdBy),
    check('story_prompt_library_status_check', oneOf('status', CONTENT_STATUSES)),
    check('story_prompt_library_usage_check', sql`usage_count >= 0`),
  ],
);

export const storyPromptCollections = pgTable(
  'story_prompt_collections',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    isPublished: boolean('is_published').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('story_prompt_collections_slug_key').on(t.slug), index('story_prompt_collections_created_by_idx').on(t.createdBy)],
);

export const storyPromptCollectionItems = pgTable(
  'story_prompt_collection_items',
  {
    collectionId: uuid('collection_id').notNull(),
    promptId: uuid('prompt_id').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'story_prompt_collection_items_pkey', columns: [t.collectionId, t.promptId] }),
    foreignKey({ name: 'story_prompt_collection_items_collection_id_fk', columns: [t.collectionId], foreignColumns: [storyPromptCollections.id] })
      .onDelete('cascade'),
    foreignKey({ name: 'story_prompt_collection_items_prompt_id_fk', columns: [t.promptId], foreignColumns: [storyPromptLibrary.id] })
      .onDelete('cascade'),
    index('story_prompt_collection_items_prompt_id_idx').on(t.promptId),
  ],
);

/** Example blurbs the book-blurb tool is prompted with (dashboard tools/book-blurb/samples). */
export const blurbSamples = pgTable(
  'blurb_samples',
  {
    id: id(),
    bookTitle: text('book_title').notNull(),
    author: text('author'),
    genre: text('genre'),
    blurb: text('blurb').notNull(),
    /** Which of the three blurb styles it exemplifies: hook, character, situation. */
    style: text('style'),
    notes: text('notes'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('blurb_samples_genre_idx').on(t.genre),
    index('blurb_samples_created_by_idx').on(t.createdBy),
    check('blurb_samples_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

export const BLURB_QUEUE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type BlurbQueueStatus = (typeof BLURB_QUEUE_STATUSES)[number];

/** Blurbs waiting for review before they become samples (dashboard tools/book-blurb/queue and add). */
export const blurbQueue = pgTable(
  'blurb_queue',
  {
    id: id(),
    bookTitle: text('book_title').notNull(),
    author: text('author'),
    genre: text('genre'),
    blurb: text('blurb').notNull(),
    /** The free-tool content the blurb came from (tools_book_blurbs.id), when it was promoted from there. */
    sourceContentId: uuid('source_content_id'),
    status: text('status').$type<BlurbQueueStatus>().notNull().default('pending'),
    submittedBy: uuid('submitted_by').references(() => accounts.id, { onDelete: 'set null' }),
    reviewedBy: uuid('reviewed_by').references(() => accounts.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    /** The sample made when approved. */
    sampleId: uuid('sample_id').references(() => blurbSamples.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('blurb_queue_status_created_idx').on(t.status, t.createdAt),
    index('blurb_queue_submitted_by_idx').on(t.submittedBy),
    index('blurb_queue_reviewed_by_idx').on(t.reviewedBy),
    index('blurb_queue_sample_id_idx').on(t.sampleId),
    check('blurb_queue_status_check', oneOf('status', BLURB_QUEUE_STATUSES)),
  ],
);

/** Downloadable guides and worksheets; GET /api/resources/[id]/increment-download bumps the counter. */
export const resources = pgTable(
  'resources',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category'),
    /** External link, or a stored file (storage_key), one of the two. */
    url: text('url'),
    storageKey: text('storage_key'),
    mimeType: text('mime_type'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    downloadCount: integer('download_count').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('resources_category_idx').on(t.category),
    index('resources_created_by_idx').on(t.createdBy),
    check('resources_location_check', sql`url IS NOT NULL OR storage_key IS NOT NULL`),
    check('resources_status_check', oneOf('status', CONTENT_STATUSES)),
    check('resources_download_count_check', sql`download_count >= 0`),
  ],
);

export const waitlist = pgTable(
  'waitlist',
  {
    id: id(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    name: text('name'),
    verified: boolean('verified').notNull().default(false),
    /** sha256 of the token in the verification link. */
    verificationTokenHash: text('verification_token_hash'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Where the signup came from (landing page, tool, referral). */
    source: text('source'),
    /** Early signups promised a free plan (dashboard free-eligible count). */
    freeEligible: boolean('free_eligible').notNull().default(false),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    convertedUserId: uuid('converted_user_id').references(() => accounts.id, { onDelete: 'set null' }),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('waitlist_email_key').on(t.email),
    uniqueIndex('waitlist_verification_token_hash_key').on(t.verificationTokenHash),
    index('waitlist_converted_user_id_idx').on(t.convertedUserId),
    index('waitlist_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Time-limited impersonation (spec 001 Authentication 5): an admin acts as a user through a dedicated
 * session that ends at expires_at; every action in it is audit-logged with impersonated_user_id.
 */
export const adminImpersonations = pgTable(
  'admin_impersonations',
  {
    id: id(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The auth session issued for the impersonation; revoking it ends the impersonation. */
    sessionId: uuid('session_id').references(() => authSessions.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('admin_impersonations_admin_id_idx').on(t.adminId, t.startedAt.desc().nullsFirst()),
    index('admin_impersonations_user_id_idx').on(t.userId),
    index('admin_impersonations_session_id_idx').on(t.sessionId),
    check('admin_impersonations_expiry_check', sql`expires_at > started_at`),
  ],
);

/**
 * Append-only record of every admin and support action. Actor links are set null, not cascade, so the
 * trail survives the deletion of the accounts involved.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: id(),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Verb-style name: user.impersonate, feature_flag.update, gift.delete, ... */
    action: text('action').notNull(),
    targetType: text('target_type'),
    /** Text, since targets include slug-keyed records as well as uuids. */
    targetId: text('target_id'),
    impersonatedUserId: uuid('impersonated_user_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Client IP with the last octet removed (spec 000 Authentication 10). */
    ipPrefix: text('ip_prefix'),
    /** Before and after values, request id. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_audit_log_actor_created_idx').on(t.actorId, t.createdAt.desc().nullsFirst()),
    index('admin_audit_log_target_idx').on(t.targetType, t.targetId),
    index('admin_audit_log_impersonated_user_id_idx').on(t.impersonatedUserId),
    index('admin_audit_log_created_at_idx').on(t.createdAt),
  ],
);
