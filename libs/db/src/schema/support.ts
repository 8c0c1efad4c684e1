// Content reported by users (POST /api/support/flag, reviewed in the admin support pages) and the
// consent history behind GET /api/consent/status.
import { boolean, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const FLAG_CONTENT_TYPES = ['story', 'recording', 'conversation'] as const;
export type FlagContentType = (typeof FLAG_CONTENT_TYPES)[number];
export const FLAG_STATUSES = ['open', 'reviewing', 'resolved', 'dismissed'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

export const supportFlags = pgTable(
  'support_flags',
  {
    id: id(),
    /** The reporter. Set null: a report stays reviewable after the reporter's account is gone. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    contentType: text('content_type').$type<FlagContentType>().notNull(),
    /** Id in the table named by content_type, so no foreign key. */
    contentId: uuid('content_id').notNull(),
    reason: text('reason').notNull(),
    details: text('details'),
    status: text('status').$type<FlagStatus>().notNull().default('open'),
    resolvedBy: uuid('resolved_by').references(() => accounts.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Admin recent-flags and trends: by status, newest first.
    index('support_flags_status_created_idx').on(t.status, t.createdAt.desc().nullsFirst()),
    index('support_flags_content_idx').on(t.contentType, t.contentId),
    index('support_flags_user_id_idx').on(t.userId),
    index('support_flags_resolved_by_idx').on(t.resolvedBy),
    check('support_flags_content_type_check', oneOf('content_type', FLAG_CONTENT_TYPES)),
    check('support_flags_status_check', oneOf('status', FLAG_STATUSES)),
  ],
);

/**
 * Append-only consent history: every change inserts a row and the latest row per user is the current
 * answer (its created_at is lastUpdated). Keeping the history is the proof of what was agreed when.
 */
export const consentRecords = pgTable(
  'consent_records',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    marketing: boolean('marketing').notNull(),
    analytics: boolean('analytics').notNull(),
    thirdParty: boolean('third_party').notNull(),
    /** Where the choice was made: signup, banner, settings, ... */
    source: text('source'),
    /** Client IP with the last octet removed (spec 000 Authentication 10). */
    ipPrefix: text('ip_prefix'),
    createdAt: createdAt(),
  },
  (t) => [index('consent_records_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst())],
);
