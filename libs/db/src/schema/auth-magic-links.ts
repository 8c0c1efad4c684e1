// Magic sign-in links (CONTRACTS §10): one row per request, whether or not the address has an account,
// so the per-email limit counts requests, not accounts. A 256-bit token, single use, valid 15 minutes;
// only its sha256 is stored, and the address only as its sha256 (an address with no account is not kept
// in clear). Rows of unknown addresses have no user and so never sign in.
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id } from './_columns';

export const magicLinkTokens = pgTable(
  'magic_link_tokens',
  {
    id: id(),
    /** The account the link signs into; null when the address had no account (nothing was sent). */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** sha256 of the lower-cased address asked for: the per-email limit counts these. */
    emailHash: text('email_hash').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('magic_link_tokens_hash_key').on(t.tokenHash),
    index('magic_link_tokens_email_hash_idx').on(t.emailHash, t.createdAt),
    index('magic_link_tokens_user_id_idx').on(t.userId),
  ],
);
