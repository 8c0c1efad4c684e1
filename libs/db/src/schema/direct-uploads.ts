// Direct uploads that were presigned and not (yet) registered (spec 000 "Recording to story" 2,
// CONTRACTS §6): one row per ticket, written by presign and removed by register. A ticket that expires with
// its row still here named bytes nobody registered: the core runner's `uploads.sweep-expired` job deletes
// the object (unless a recording points at it) and the row, so no orphaned bytes stay in the bucket.
import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt } from './_columns';

export const directUploads = pgTable(
  'direct_uploads',
  {
    /** The server-generated object key the ticket authorises (recordings/<user>/...). */
    key: text('key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** The ticket's expiry: after it (and a grace period) the sweep may delete the object. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('direct_uploads_expires_at_idx').on(t.expiresAt), index('direct_uploads_user_id_idx').on(t.userId)],
);
