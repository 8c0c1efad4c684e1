// The email system of spec 001: templates with version history, automation rules, the send queue the
// worker claims from, per-user preferences and suppressions, daily analytics, A/B tests, and the raw
// delivery webhooks. core-api writes queue rows in-process (CONTRACTS §5); email-service sends them.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** The values seen in spec 001; unsubscribe works per category, so the set is closed. */
export const EMAIL_CATEGORIES = ['transactional', 'marketing', 'onboarding', 'reminder', 'system'] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

export const emailTemplates = pgTable(
  'email_templates',
  {
    id: id(),
    /** Identifier-style, e.g. welcome_email; automation code refers to templates by name. */
    name: text('name').notNull(),
    displayName: text('display_name'),
    description: text('description'),
    category: text('category').$type<EmailCategory>().notNull().default('transactional'),
    subjectTemplate: text('subject_template').notNull(),
    htmlTemplate: text('html_template').notNull(),
    textTemplate: text('text_template'),
    /** Variable name to description. */
    availableVariables: jsonb('available_variables').$type<Record<string, string>>().notNull().default({}),
    /** Variable name to default value, used when the trigger does not supply one. */
    defaultVariables: jsonb('default_variables').$type<Record<string, unknown>>().notNull().default({}),
    requiredVariables: text('required_variables').array().notNull().default(sql`'{}'::text[]`),
    triggerEvents: text('trigger_events').array().notNull().default(sql`'{}'::text[]`),
    /** 0 sends immediately. */
    sendDelayHours: integer('send_delay_hours').notNull().default(0),
    /** Null means no cap. */
    maxSendsPerUser: integer('max_sends_per_user'),
    isActive: boolean('is_active').notNull().default(true),
    /** System templates (password reset, invitations) cannot be deleted from the admin app. */
    isSystem: boolean('is_system').notNull().default(false),
    /** Version number of the current content; each update snapshots into email_template_versions. */
    currentVersion: integer('current_version').notNull().default(1),
    /** Lifetime counters, bumped by the worker and the webhook; email_analytics holds the per-day split. */
    totalSent: integer('total_sent').notNull().default(0),
    totalOpened: integer('total_opened').notNull().default(0),
    totalClicked: integer('total_clicked').notNull().default(0),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('email_templates_name_key').on(t.name),
    index('email_templates_category_idx').on(t.category),
    // triggerEvent(event) finds the templates listening for it: trigger_events @> array[event].
    index('email_templates_trigger_events_idx').using('gin', t.triggerEvents),
    index('email_templates_created_by_idx').on(t.createdBy),
    index('email_templates_updated_by_idx').on(t.updatedBy),
    check('email_templates_name_check', sql`name ~ '^[a-z0-9][a-z0-9_]*$'`),
    check('email_templates_category_check', oneOf('category', EMAIL_CATEGORIES)),
    check('email_templates_delay_check', sql`send_delay_hours >= 0`),
    check('email_templates_max_sends_check', sql`max_sends_per_user IS NULL OR max_sends_per_user > 0`),
    check('email_templates_counters_check', sql`total_sent >= 0 AND total_opened >= 0 AND total_clicked >= 0`),
  ],
);

/** Full snapshot of a template at each version, so any earlier content can be shown or restored. */
export const emailTemplateVersions = pgTable(
  'email_template_versions',
  {
    id: id(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    displayName: text('display_name'),
    description: text('description'),
    category: text('category').notNull(),
    subjectTemplate: text('subject_template').notNull(),
    htmlTemplate: text('html_template').notNull(),
    textTemplate: text('text_template'),
    availableVariables: jsonb('available_variables').$type<Record<string, string>>().notNull().default({}),
    defaultVariables: jsonb('default_variables').$type<Record<string, unknown>>().notNull().default({}),
    requiredVariables: text('required_variables').array().notNull().default(sql`'{}'::text[]`),
    triggerEvents: text('trigger_events').array().notNull().default(sql`'{}'::text[]`),
    sendDelayHours: integer('send_delay_hours').notNull().default(0),
    maxSendsPerUser: integer('max_sends_per_user'),
    isActive: boolean('is_active').notNull(),
    changedBy: uuid('changed_by').references(() => accounts.id, { onDelete: 'set null' }),
    changeNote: text('change_note'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_template_versions_template_version_key').on(t.templateId, t.version),
    index('email_template_versions_changed_by_idx').on(t.changedBy),
    check('email_template_versions_version_check', sql`version > 0`),
  ],
);

/** Conditions a trigger must meet, e.g. {user_segment: 'new_users'}. */
export type AutomationConditions = Record<string, unknown>;

/** Event-to-template rules that triggerEvent evaluates, highest priority first. */
export const emailAutomationRules = pgTable(
  'email_automation_rules',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    /** story_created, story_reminder, user_signup, family_invitation, ... */
    event: text('event').notNull(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    conditions: jsonb('conditions').$type<AutomationConditions>().notNull().default({}),
    delayHours: integer('delay_hours').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    priority: integer('priority').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('email_automation_rules_event_idx').on(t.event, t.priority.desc().nullsFirst()),
    index('email_automation_rules_template_id_idx').on(t.templateId),
    check('email_automation_rules_delay_check', sql`delay_hours >= 0`),
  ],
);

export const AB_TEST_STATUSES = ['running', 'completed', 'paused'] as const;
export type AbTestStatus = (typeof AB_TEST_STATUSES)[number];
export const AB_SUCCESS_METRICS = ['open_rate', 'click_rate'] as const;
export type AbSuccessMetric = (typeof AB_SUCCESS_METRICS)[number];
export const AB_VARIANTS = ['base', 'variant'] as const;
export type AbVariant = (typeof AB_VARIANTS)[number];

export interface AbVariantStats {
  sent: number;
  opened: number;
  clicked: number;
  open_rate: number;
  click_rate: number;
}

/** The results object of spec 001 "A/B test", cached on the row and recomputed from the queue. */
export interface AbTestResults {
  base_stats: AbVariantStats;
  variant_stats: AbVariantStats;
  winner: 'base' | 'variant' | null;
  confidence: number;
  is_significant: boolean;
  improvement: string;
  total_samples: number;
}

export const emailAbTests = pgTable(
  'email_ab_tests',
  {
    id: id(),
    /** Generated: base template display name plus the variant name. */
    name: text('name').notNull(),
    baseTemplateId: uuid('base_template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    variantTemplateId: uuid('variant_template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    /** Share of sends (percent) that get the variant. */
    testPercentage: integer('test_percentage').notNull(),
    testDurationDays: integer('test_duration_days'),
    successMetric: text('success_metric').$type<AbSuccessMetric>().notNull().default('open_rate'),
    status: text('status').$type<AbTestStatus>().notNull().default('running'),
    startDate: timestamp('start_date', { withTimezone: true }).notNull().defaultNow(),
    endDate: timestamp('end_date', { withTimezone: true }),
    results: jsonb('results').$type<AbTestResults>(),
    resultsUpdatedAt: timestamp('results_updated_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('email_ab_tests_base_template_id_idx').on(t.baseTemplateId),
    index('email_ab_tests_variant_template_id_idx').on(t.variantTemplateId),
    index('email_ab_tests_status_created_idx').on(t.status, t.createdAt.desc().nullsFirst()),
    index('email_ab_tests_created_by_idx').on(t.createdBy),
    check('email_ab_tests_percentage_check', sql`test_percentage BETWEEN 1 AND 99`),
    check('email_ab_tests_status_check', oneOf('status', AB_TEST_STATUSES)),
    check('email_ab_tests_metric_check', oneOf('success_metric', AB_SUCCESS_METRICS)),
    check('email_ab_tests_templates_check', sql`base_template_id <> variant_template_id`),
    check('email_ab_tests_dates_check', sql`end_date IS NULL OR end_date >= start_date`),
  ],
);

export const QUEUE_STATUSES = ['pending', 'processing', 'sent', 'failed', 'cancelled'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * The send queue. Claim: `UPDATE ... SET status='processing', locked_at=now(), locked_by=$worker,
 * lease_expires_at=now()+lease, attempts=attempts+1 WHERE id IN (SELECT id FROM email_send_queue WHERE
 * status='pending' AND scheduled_for <= now() AND (next_attempt_at IS NULL OR next_attempt_at <= now())
 * ORDER BY scheduled_for LIMIT $batch FOR UPDATE SKIP LOCKED)`, so concurrent workers never take the same row.
 * A worker that dies leaves 'processing' rows whose lease has run out; the next run puts them back to
 * pending. The send itself carries idempotency_key to the provider, so a re-sent claim is not a second email.
 * A retry keeps scheduled_for (the "stuck for an hour" alert reads it) and sets next_attempt_at to the backoff.
 */
export const emailSendQueue = pgTable(
  'email_send_queue',
  {
    id: id(),
    /** Set null: the rendered copy below stays readable in the user's inbox after a template is deleted. */
    templateId: uuid('template_id').references(() => emailTemplates.id, { onDelete: 'set null' }),
    /** Null for recipients without an account (family invitations, gift recipients). */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    htmlContent: text('html_content').notNull(),
    textContent: text('text_content'),
    templateVariables: jsonb('template_variables').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Names of the variables that are credentials (verification and sign-in links, invitation tokens, gift
     * codes), marked by the trigger at enqueue (libs/email credentials.ts): every view but the delivery
     * removes them, and the worker stores the redacted copy once the row is final (CONTRACTS §7).
     */
    sensitiveVariables: text('sensitive_variables').array().notNull().default(sql`'{}'::text[]`),
    /** When the worker replaced the stored copy by its redacted form (null: nothing to redact, or not final yet). */
    redactedAt: timestamp('redacted_at', { withTimezone: true }),
    /** Copied from the template at enqueue time; the unsubscribe check is re-run at send time. */
    category: text('category').$type<EmailCategory>(),
    status: text('status').$type<QueueStatus>().notNull().default('pending'),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** Worker id (host:pid:random) holding the claim. */
    lockedBy: text('locked_by'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    errorMessage: text('error_message'),
    /** The provider's id for the message: delivery webhooks find the row by it. */
    providerMessageId: text('provider_message_id'),
    /** RFC 5322 Message-ID we set, for SMTP servers that report no id of their own. */
    messageIdHeader: text('message_id_header'),
    /** Set by callers that must not enqueue twice (e.g. 'invite:<invitation id>:<send no>'). */
    idempotencyKey: text('idempotency_key'),
    abTestId: uuid('ab_test_id').references(() => emailAbTests.id, { onDelete: 'set null' }),
    abVariant: text('ab_variant').$type<AbVariant>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    clickedAt: timestamp('clicked_at', { withTimezone: true }),
    bouncedAt: timestamp('bounced_at', { withTimezone: true }),
    complainedAt: timestamp('complained_at', { withTimezone: true }),
    /** created_at of the latest webhook applied: an older event arriving late never overwrites a newer state. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
  },
  (t) => [
    // The claim query above: only pending rows, oldest due first. Partial, so sent history does not bloat it.
    index('email_send_queue_pending_scheduled_idx').on(t.scheduledFor).where(sql`status = 'pending'`),
    // Reclaiming expired leases and the queue_status counts of the analytics page.
    index('email_send_queue_status_locked_idx').on(t.status, t.lockedAt),
    // GET /api/user/emails/received: the caller's emails, newest first.
    index('email_send_queue_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // Per-template activity and max_sends_per_user counting.
    index('email_send_queue_template_id_created_idx').on(t.templateId, t.createdAt),
    // recent_activity and period totals of the analytics page.
    index('email_send_queue_created_at_idx').on(t.createdAt),
    index('email_send_queue_ab_test_id_idx').on(t.abTestId),
    uniqueIndex('email_send_queue_provider_message_id_key').on(t.providerMessageId),
    uniqueIndex('email_send_queue_idempotency_key_key').on(t.idempotencyKey),
    check('email_send_queue_status_check', oneOf('status', QUEUE_STATUSES)),
    check('email_send_queue_category_check', sql`category IS NULL OR ${oneOf('category', EMAIL_CATEGORIES)}`),
    check('email_send_queue_ab_variant_check', sql`ab_variant IS NULL OR ${oneOf('ab_variant', AB_VARIANTS)}`),
    check('email_send_queue_attempts_check', sql`attempts >= 0 AND max_attempts >= 1`),
  ],
);

export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** One row per user (made on first change); no row means the defaults: subscribed to everything. */
export const userEmailPreferences = pgTable(
  'user_email_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    unsubscribedCategories: text('unsubscribed_categories').array().notNull().default(sql`'{}'::text[]`),
    /** Everything except transactional and system mail, which a user cannot opt out of. */
    unsubscribedAll: boolean('unsubscribed_all').notNull().default(false),
    /** Set after a hard bounce or complaint on the account's address: nothing is sent until cleared. */
    suppressedAt: timestamp('suppressed_at', { withTimezone: true }),
    suppressionReason: text('suppression_reason').$type<SuppressionReason>(),
    /** Part of the signed unsubscribe link; bumping it invalidates every link sent before. */
    unsubscribeTokenVersion: integer('unsubscribe_token_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [
    check('user_email_preferences_reason_check', sql`suppression_reason IS NULL OR ${oneOf('suppression_reason', SUPPRESSION_REASONS)}`),
  ],
);

/**
 * Addresses that bounced hard or complained, whether or not they belong to an account (invitees and gift
 * recipients have none). The worker skips them; user_email_preferences covers opt-outs of account holders.
 */
export const emailSuppressions = pgTable(
  'email_suppressions',
  {
    /** Lower-cased address. */
    email: text('email').primaryKey(),
    reason: text('reason').$type<SuppressionReason>().notNull(),
    /** The delivery event that caused it, for support questions. */
    sourceEventId: uuid('source_event_id').references((): AnyPgColumn => emailDeliveryEvents.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_suppressions_source_event_id_idx').on(t.sourceEventId),
    check('email_suppressions_reason_check', oneOf('reason', SUPPRESSION_REASONS)),
  ],
);

/** Per-template per-day counters (UTC days), upserted by the worker and the webhook; kept 365 days. */
export const emailAnalytics = pgTable(
  'email_analytics',
  {
    id: id(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    opened: integer('opened').notNull().default(0),
    clicked: integer('clicked').notNull().default(0),
    bounced: integer('bounced').notNull().default(0),
    complained: integer('complained').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    // INSERT ... ON CONFLICT (template_id, date) DO UPDATE SET sent = sent + 1.
    uniqueIndex('email_analytics_template_date_key').on(t.templateId, t.date),
    // daily_trends over a period, and pruning after 365 days.
    index('email_analytics_date_idx').on(t.date),
    check(
      'email_analytics_counters_check',
      sql`sent >= 0 AND delivered >= 0 AND opened >= 0 AND clicked >= 0 AND bounced >= 0 AND complained >= 0 AND failed >= 0`,
    ),
  ],
);

/** Event types the provider sends (spec 001 Events); unknown types are stored too, just not applied. */
export const EMAIL_EVENT_TYPES = [
  'email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

/** Every verified delivery webhook, as received: the unique svix_id makes a replay change nothing. */
export const emailDeliveryEvents = pgTable(
  'email_delivery_events',
  {
    id: id(),
    /** The svix-id header: insert ... on conflict do nothing is the idempotency check. */
    svixId: text('svix_id').notNull(),
    type: text('type').notNull(),
    /** data.email_id of the body: the provider's message id. */
    providerMessageId: text('provider_message_id'),
    /** The queue row the event was matched to, when one was found. */
    queueId: uuid('queue_id').references(() => emailSendQueue.id, { onDelete: 'set null' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** created_at of the body: when the provider says it happened. */
    occurredAt: timestamp('occurred_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    matched: boolean('matched').notNull().default(false),
  },
  (t) => [
    uniqueIndex('email_delivery_events_svix_id_key').on(t.svixId),
    index('email_delivery_events_queue_id_idx').on(t.queueId),
    // Events that arrived before their queue row knew its provider id are matched later by this.
    index('email_delivery_events_provider_message_id_idx').on(t.providerMessageId),
    index('email_delivery_events_received_at_idx').on(t.receivedAt),
  ],
);
