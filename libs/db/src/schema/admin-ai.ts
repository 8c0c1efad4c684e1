// AI management of the admin application (spec 001 "Admin resources"): prompt templates with their
// versions, text-to-speech voices, and the provider configuration per capability.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

const createdBy = () => uuid('created_by').references(() => accounts.id, { onDelete: 'set null' });

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
    /** The product feature it applies to (story-conversion, conversation:chat, ... as in ai_usage_logs.feature); null: every feature of the capability. */
    feature: text('feature'),
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
    index('ai_provider_configs_capability_feature_idx').on(t.capability, t.feature),
    index('ai_provider_configs_updated_by_idx').on(t.updatedBy),
    check('ai_provider_configs_capability_check', oneOf('capability', AI_CAPABILITIES)),
  ],
);

export const CONVERSATION_TEST_STATUSES = ['passed', 'failed', 'error'] as const;
export type ConversationTestStatus = (typeof CONVERSATION_TEST_STATUSES)[number];

/**
 * Runs of the admin conversation tester (dashboard conversation-testing): a scripted storyteller talks to
 * the interviewer prompt under test; each turn's question, timing and checks are kept for results and
 * analytics. Separate from `conversations`, so tests never count as user activity.
 */
export const aiConversationTests = pgTable(
  'ai_conversation_tests',
  {
    id: id(),
    name: text('name'),
    promptKey: text('prompt_key').notNull(),
    promptVersion: integer('prompt_version'),
    feature: text('feature').notNull(),
    provider: text('provider'),
    model: text('model'),
    /** The storyteller's scripted answers, in order. */
    script: jsonb('script').$type<string[]>().notNull().default([]),
    /** One entry per turn: answer, question, latency, checks. */
    turns: jsonb('turns').$type<Record<string, unknown>[]>().notNull().default([]),
    status: text('status').$type<ConversationTestStatus>().notNull(),
    checksPassed: integer('checks_passed').notNull().default(0),
    checksTotal: integer('checks_total').notNull().default(0),
    totalLatencyMs: integer('total_latency_ms').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    error: text('error'),
    createdBy: createdBy(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ai_conversation_tests_created_at_idx').on(t.createdAt),
    index('ai_conversation_tests_prompt_idx').on(t.promptKey, t.promptVersion),
    index('ai_conversation_tests_created_by_idx').on(t.createdBy),
    check('ai_conversation_tests_status_check', oneOf('status', CONVERSATION_TEST_STATUSES)),
  ],
);
