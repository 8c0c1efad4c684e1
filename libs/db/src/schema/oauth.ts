// Social sign-in in flight (CONTRACTS §10): the state of each /start (with its nonce and PKCE
// verifier, single use, 10 minutes) and the one-time codes the callback hands the web application
// (single use, 2 minutes). Only sha256 hashes of the state, the browser binding and the code are stored.
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './_columns';
import { accounts } from './accounts';

export const oauthStates = pgTable(
  'oauth_states',
  {
    id: id(),
    /** sha256 of the state parameter sent to the provider. */
    stateHash: text('state_hash').notNull(),
    provider: text('provider').notNull(),
    /** OpenID Connect providers only (Google, Apple). */
    nonce: text('nonce'),
    codeVerifier: text('code_verifier').notNull(),
    /** sha256 of the browser binding cookie set by /start: the callback must come from the same browser (login CSRF). */
    browserHash: text('browser_hash').notNull(),
    /** The application path to return to after sign-in. */
    redirectTo: text('redirect_to'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('oauth_states_state_hash_key').on(t.stateHash), index('oauth_states_expires_at_idx').on(t.expiresAt)],
);

export const oauthExchangeCodes = pgTable(
  'oauth_exchange_codes',
  {
    id: id(),
    codeHash: text('code_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('oauth_exchange_codes_code_hash_key').on(t.codeHash), index('oauth_exchange_codes_user_id_idx').on(t.userId)],
);
