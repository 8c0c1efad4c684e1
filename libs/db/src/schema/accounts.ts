// Accounts, sign-in sessions, refresh tokens and lockouts (CONTRACTS §2). core-api writes them;
// every service reads auth_sessions to refuse revoked tokens.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const ACCOUNT_ROLES = ['user', 'support', 'admin'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    /** Stored lower-cased; the unique index makes signup races answer 409, not a duplicate. */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    role: text('role').$type<AccountRole>().notNull().default('user'),
    /**
     * admin or support given through the admin API (spec 001 Admin application reference: users); like a
     * listed email it counts only while the email is verified (roleForAccount), and the lists win over it.
     */
    grantedRole: text('granted_role').$type<AccountRole>(),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('accounts_email_key').on(t.email),
    check('accounts_role_check', oneOf('role', ACCOUNT_ROLES)),
    check('accounts_granted_role_check', sql`granted_role IS NULL OR granted_role IN ('support', 'admin')`),
    // Newest first: the admin users list and the dashboard's signup feed (spec 001 Admin application
    // reference).
    index('accounts_created_at_idx').on(t.createdAt.desc().nullsFirst()),
  ],
);

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    /** Client IP with the last octet removed (spec 000 Authentication 10). */
    ipPrefix: text('ip_prefix'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
    /** The session (and so its refresh tokens) ends here; access tokens end earlier, at their exp. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('auth_sessions_user_id_idx').on(t.userId)],
);

export const authRefreshTokens = pgTable(
  'auth_refresh_tokens',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    /** sha256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    /** Set when the token is rotated; presenting a used token again revokes the whole session. */
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('auth_refresh_tokens_hash_key').on(t.tokenHash), index('auth_refresh_tokens_session_id_idx').on(t.sessionId)],
);

export const VERIFICATION_SOURCES = ['signup', 'resend'] as const;

/**
 * Email verification links (CONTRACTS §7): 256-bit random tokens, single use, valid 24 hours. Only the
 * sha256 is stored; the address it was sent to is kept so a token never verifies a changed email.
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** signup or resend: resends are limited per hour, the signup email is not counted. */
    source: text('source').$type<(typeof VERIFICATION_SOURCES)[number]>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_verification_tokens_hash_key').on(t.tokenHash),
    index('email_verification_tokens_user_id_idx').on(t.userId, t.createdAt),
    check('email_verification_tokens_source_check', oneOf('source', VERIFICATION_SOURCES)),
  ],
);

/** One row per email with recent failed sign-ins: five within 15 minutes lock it for 15 minutes. */
export const authLockouts = pgTable('auth_lockouts', {
  email: text('email').primaryKey(),
  failedCount: integer('failed_count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  alerted: boolean('alerted').notNull().default(false),
});

export const SUBSCRIPTION_TIERS = ['free', 'starter', 'family', 'premium'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];
export const SUBSCRIPTION_STATUSES = ['trial', 'active', 'cancelled'] as const;

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fullName: text('full_name'),
    phone: text('phone'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    displayName: text('display_name'),
    relationshipRole: text('relationship_role'),
    birthYear: integer('birth_year'),
    preferredMethod: text('preferred_method').notNull().default('mixed'),
    technologyComfort: text('technology_comfort').notNull().default('somewhat_comfortable'),
    subscriptionTier: text('subscription_tier').$type<SubscriptionTier>().notNull().default('free'),
    subscriptionStatus: text('subscription_status'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    paymentCustomerId: text('payment_customer_id'),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    onboardingStep: text('onboarding_step'),
    onboardingData: jsonb('onboarding_data').$type<Record<string, unknown>>().notNull().default({}),
    /** IANA zone, the one home of the time-zone setting (spec 000 Settings tables: default America/New_York). */
    timezone: text('timezone').notNull().default('America/New_York'),
    memoriesFamilyDownload: boolean('memories_family_download').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('profiles_subscription_tier_check', oneOf('subscription_tier', SUBSCRIPTION_TIERS)),
    check('profiles_subscription_status_check', sql`subscription_status IS NULL OR ${oneOf('subscription_status', SUBSCRIPTION_STATUSES)}`),
    check('profiles_birth_year_check', sql`birth_year IS NULL OR birth_year BETWEEN 1850 AND 2100`),
    index('profiles_payment_customer_id_idx').on(t.paymentCustomerId),
  ],
);
