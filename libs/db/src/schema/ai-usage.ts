// One row per AI provider call of the core platform (spec 000 "AI cost tracking"): cost per
// capability, feeding GET /api/user/usage, the usage limits (429) and the admin AI analytics.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const AI_OPERATIONS = ['stt', 'tts', 'llm'] as const;
export type AiOperation = (typeof AI_OPERATIONS)[number];

/** Six decimals: one TTS character or one LLM token costs fractions of a cent. */
const costUsd = (name: string) => numeric(name, { precision: 12, scale: 6, mode: 'number' }).notNull().default(0);

export const aiUsageLogs = pgTable(
  'ai_usage_logs',
  {
    id: id(),
    /** Set null on account deletion: platform cost totals stay correct after erasure. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The product feature that made the call: transcription, grammar, content-analysis, story-conversion, ... */
    feature: text('feature').notNull(),
    /** Real provider name (google, deepgram, elevenlabs, openai, anthropic, local). */
    provider: text('provider').notNull(),
    model: text('model'),
    operation: text('operation').$type<AiOperation>().notNull(),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    audioSeconds: numeric('audio_seconds', { precision: 10, scale: 2, mode: 'number' }),
    characters: integer('characters'),
    sttCostUsd: costUsd('stt_cost_usd'),
    llmCostUsd: costUsd('llm_cost_usd'),
    ttsCostUsd: costUsd('tts_cost_usd'),
    latencyMs: integer('latency_ms'),
    success: boolean('success').notNull().default(true),
    errorCode: text('error_code'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    // Per-user daily and monthly totals (usage limits, GET /api/user/usage).
    index('ai_usage_logs_user_id_created_idx').on(t.userId, t.createdAt),
    // Platform-wide ranges for admin analytics and retention pruning.
    index('ai_usage_logs_created_at_idx').on(t.createdAt),
    check('ai_usage_logs_operation_check', oneOf('operation', AI_OPERATIONS)),
    check('ai_usage_logs_costs_check', sql`stt_cost_usd >= 0 AND llm_cost_usd >= 0 AND tts_cost_usd >= 0`),
  ],
);

export const AI_REQUEST_PERIODS = ['day', 'month'] as const;
export type AiRequestPeriod = (typeof AI_REQUEST_PERIODS)[number];

/**
 * Requests to the AI helpers (/api/ai/*) counted against the tier's allowance, one row per account, period
 * and UTC window (the day, or the first day of the month). The count moves by one conditional upsert
 * (`... DO UPDATE SET count = count + 1 WHERE count < allowance RETURNING count`), so concurrent calls
 * never pass the allowance; ai_usage_logs keeps the cost of each provider call beside it.
 */
export const aiRequestCounters = pgTable(
  'ai_request_counters',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    period: text('period').$type<AiRequestPeriod>().notNull(),
    windowStart: date('window_start', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'ai_request_counters_pkey', columns: [t.userId, t.period, t.windowStart] }),
    check('ai_request_counters_period_check', oneOf('period', AI_REQUEST_PERIODS)),
    check('ai_request_counters_count_check', sql`count >= 0`),
  ],
);
