// Social sign-in identities (CONTRACTS §10): one row per provider account linked to one of our accounts.
// The OAuth flow writes them; GET/DELETE /api/auth/identities list and unlink them.
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf } from './_columns';

export const AUTH_PROVIDERS = ['google', 'facebook', 'apple'] as const;
export type AuthProvider = (typeof AUTH_PROVIDERS)[number];

export const authIdentities = pgTable(
  'auth_identities',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<AuthProvider>().notNull(),
    /** The provider's stable user id (OIDC `sub`). */
    subject: text('subject').notNull(),
    /** The address the provider reported, lower-cased; may differ from accounts.email. */
    email: text('email'),
    /** Whether the provider vouched for that address. */
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('auth_identities_provider_subject_key').on(t.provider, t.subject),
    index('auth_identities_user_id_idx').on(t.userId),
    check('auth_identities_provider_check', oneOf('provider', AUTH_PROVIDERS)),
  ],
);
