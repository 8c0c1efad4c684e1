// Who uses the free tools and how much (spec 002 Limits, Events): visitor sessions, rate-limit counters
// and hits, analytics events and AI usage.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';
import { TOOL_ROUTES, type ToolRoute } from './tools-content';

/** Visitor sessions keyed by the X-Session-ID value (CONTRACTS §6 format), upserted on each request. */
export const toolsSessions = pgTable(
  'tools_sessions',
  {
    id: text('id').primaryKey(),
    /** Set when a valid Bearer token came with the session; X-User-ID alone is never trusted. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    isAnonymous: boolean('is_anonymous').notNull().default(true),
    /** Client IP with the last octet removed. */
    ipPrefix: text('ip_prefix'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** 24 hours for anonymous sessions; pushed on with activity for signed-in ones (30 days idle). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('tools_sessions_user_id_idx').on(t.userId),
    index('tools_sessions_expires_at_idx').on(t.expiresAt),
    check('tools_sessions_id_check', sql`id ~ '^sess_[0-9]{10,13}_[A-Za-z0-9]{6,64}$'`),
  ],
);

/** hourly: the generic generate limit; daily: per-tool generation; responses: per-tool responses per day. */
export const RATE_LIMIT_SCOPES = ['hourly', 'daily', 'responses'] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];

/**
 * Fixed-window counters kept in PostgreSQL so limits hold across replicas without Redis:
 * `INSERT ... ON CONFLICT (key, scope, tool, window_start) DO UPDATE SET count = count + 1 RETURNING count`.
 * key is 'ip:<prefix>', 'sess:<id>' or 'user:<uuid>'; tool is '*' for limits across all tools.
 */
export const toolsRateLimits = pgTable(
  'tools_rate_limits',
  {
    key: text('key').notNull(),
    scope: text('scope').$type<RateLimitScope>().notNull(),
    tool: text('tool').notNull().default('*'),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'tools_rate_limits_pkey', columns: [t.key, t.scope, t.tool, t.windowStart] }),
    // Pruning of past windows.
    index('tools_rate_limits_window_start_idx').on(t.windowStart),
    check('tools_rate_limits_scope_check', oneOf('scope', RATE_LIMIT_SCOPES)),
    check('tools_rate_limits_tool_check', sql`tool = '*' OR ${oneOf('tool', TOOL_ROUTES)}`),
    check('tools_rate_limits_count_check', sql`count >= 0`),
  ],
);

/** Event types of POST /api/{tool}/{id}/analytics, plus generate, recorded by the generate route itself. */
export const TOOL_EVENT_TYPES = ['view', 'share', 'export', 'response_created', 'generate'] as const;
export type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

export const toolsAnalytics = pgTable(
  'tools_analytics',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    /** Content id in the tool's table (no foreign key: events outlive expired content). */
    contentId: uuid('content_id'),
    eventType: text('event_type').$type<ToolEventType>().notNull(),
    /** Export format, share platform, time on page, ... */
    eventData: jsonb('event_data').$type<Record<string, unknown>>().notNull().default({}),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    sessionId: text('session_id'),
    /** Stored with the last octet removed (spec 000 Authentication 10). */
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    // Per-content analytics (admin GET /api/{tool}/{id}/analytics): views, unique sessions, trend by day.
    index('tools_analytics_content_created_idx').on(t.tool, t.contentId, t.createdAt),
    index('tools_analytics_created_at_idx').on(t.createdAt),
    index('tools_analytics_user_id_idx').on(t.userId),
    check('tools_analytics_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_analytics_event_type_check', oneOf('event_type', TOOL_EVENT_TYPES)),
  ],
);

/** One row per AI generation call of the tools service, successful or not. */
export const toolsAiUsage = pgTable(
  'tools_ai_usage',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    /** The content made, when the call succeeded. */
    contentId: uuid('content_id'),
    sessionId: text('session_id'),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    provider: text('provider'),
    model: text('model'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    tokensUsed: integer('tokens_used').notNull().default(0),
    costUsd: numeric('cost_usd', { precision: 12, scale: 6, mode: 'number' }).notNull().default(0),
    generationTimeMs: integer('generation_time_ms'),
    success: boolean('success').notNull().default(true),
    errorCode: text('error_code'),
    createdAt: createdAt(),
  },
  (t) => [
    index('tools_ai_usage_tool_created_idx').on(t.tool, t.createdAt),
    index('tools_ai_usage_created_at_idx').on(t.createdAt),
    index('tools_ai_usage_user_id_idx').on(t.userId),
    check('tools_ai_usage_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_ai_usage_values_check', sql`tokens_used >= 0 AND cost_usd >= 0`),
  ],
);

/** Each refused request (429), for the admin view of who hits limits and where conversion prompts show. */
export const toolsRateLimitHits = pgTable(
  'tools_rate_limit_hits',
  {
    id: id(),
    tool: text('tool').notNull().default('*'),
    scope: text('scope').$type<RateLimitScope>().notNull(),
    key: text('key').notNull(),
    sessionId: text('session_id'),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    ipPrefix: text('ip_prefix'),
    limitValue: integer('limit_value').notNull(),
    currentUsage: integer('current_usage').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('tools_rate_limit_hits_tool_created_idx').on(t.tool, t.createdAt),
    index('tools_rate_limit_hits_created_at_idx').on(t.createdAt),
    index('tools_rate_limit_hits_user_id_idx').on(t.userId),
    check('tools_rate_limit_hits_scope_check', oneOf('scope', RATE_LIMIT_SCOPES)),
  ],
);
