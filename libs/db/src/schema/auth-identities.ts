// Sign-in identities of other methods (issue 18): one row per provider identity (provider + subject),
// linked to one account. The same (provider, subject) always signs into the same account.
import { boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './_columns';
import { accounts } from './accounts';

export const authIdentities = pgTable(
  'auth_identities',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's stable id of the person (OIDC `sub`, Facebook `id`). */
    subject: text('subject').notNull(),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_identities_provider_subject_key').on(t.provider, t.subject), index('auth_identities_user_id_idx').on(t.userId)],
);
