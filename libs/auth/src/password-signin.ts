// Email-and-password sign-in shared by core-api (`POST /api/auth/signin`, CONTRACTS §2) and email-service's
// admin application (`/dashboard`, CONTRACTS §12): one lockout (five failures for an email within 15
// minutes lock it for 15 minutes), one password check (a real hash is verified even for unknown emails, so
// timing does not reveal which exist), one role rule (roleForAccount) and one kind of session row, the
// row every service's session check reads, so signing out or revoking it ends it everywhere.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accounts, authLockouts, authSessions, one, type AccountRole, type Database, type DbOrTx } from '@story/db';
import { AppError, ipWithoutLastOctet } from '@story/http';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { roleForAccount, type RoleLists } from './roles';

const LOCK_WINDOW = sql`interval '15 minutes'`;
const MAX_FAILURES = 5;

export const LOCKED_MESSAGE = 'Too many failed sign-in attempts for this email. Please wait 15 minutes and try again.';

/** The account behind good credentials, with the role it holds now. */
export interface CheckedAccount {
  id: string;
  email: string;
  role: AccountRole;
  emailVerified: boolean;
}

export interface SessionValues {
  userId: string;
  userAgent?: string;
  /** The client address; stored without its last octet (spec 000 Authentication 10). */
  ip?: string;
  expiresAt: Date;
}

export interface PasswordSigninDeps {
  db: Database;
  roles: RoleLists;
  /** Called when an email reaches the lockout threshold (spec 000: alert after 5 attempts). */
  onLockout?: (email: string) => void;
}

export function createPasswordSignin({ db, roles, onLockout }: PasswordSigninDeps) {
  async function isLocked(email: string): Promise<boolean> {
    const rows = await db
      .select({ email: authLockouts.email })
      .from(authLockouts)
      .where(and(eq(authLockouts.email, email), gt(authLockouts.lockedUntil, sql`now()`)));
    return rows.length > 0;
  }

  /** One more failure in the email's 15-minute window (a window that has passed starts again at 1); the fifth locks it. */
  async function recordFailure(email: string): Promise<void> {
    const [row] = await db
      .insert(authLockouts)
      .values({ email, failedCount: 1 })
      .onConflictDoUpdate({
        target: authLockouts.email,
        set: {
          failedCount: sql`case when ${authLockouts.windowStartedAt} < now() - ${LOCK_WINDOW} then 1 else ${authLockouts.failedCount} + 1 end`,
          windowStartedAt: sql`case when ${authLockouts.windowStartedAt} < now() - ${LOCK_WINDOW} then now() else ${authLockouts.windowStartedAt} end`,
        },
      })
      .returning({ failedCount: authLockouts.failedCount });
    if (row && row.failedCount >= MAX_FAILURES) {
      // Lock for 15 minutes and start counting afresh.
      await db
        .update(authLockouts)
        .set({ lockedUntil: sql`now() + ${LOCK_WINDOW}`, failedCount: 0, windowStartedAt: sql`now()` })
        .where(eq(authLockouts.email, email));
      onLockout?.(email);
    }
  }

  return {
    /**
     * The account whose password this is, or: 429 while the email is locked, 401 "Invalid email or
     * password" otherwise (the failure counted). `email` is the lower-cased address. Nothing is written on
     * success: `markSignedIn` does that inside the caller's transaction.
     */
    async check(email: string, password: string): Promise<CheckedAccount> {
      if (await isLocked(email)) throw new AppError('rate_limited', LOCKED_MESSAGE, { retryAfter: 900 });
      const [account] = await db
        .select({ id: accounts.id, email: accounts.email, grantedRole: accounts.grantedRole, passwordHash: accounts.passwordHash, emailConfirmedAt: accounts.emailConfirmedAt })
        .from(accounts)
        .where(eq(accounts.email, email));
      const ok = await verifyPassword(account?.passwordHash ?? (await dummyPasswordHash()), password);
      if (!account || !account.passwordHash || !ok) {
        await recordFailure(email);
        throw new AppError('unauthorized', 'Unauthorized', { details: 'Invalid email or password' });
      }
      const emailVerified = account.emailConfirmedAt !== null;
      return { id: account.id, email: account.email, role: roleForAccount({ email: account.email, emailVerified, grantedRole: account.grantedRole }, roles), emailVerified };
    },

    /** The role decided at this sign-in and the sign-in time written; the email's failure count cleared. */
    async markSignedIn(account: CheckedAccount, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ role: account.role, lastSignInAt: new Date() }).where(eq(accounts.id, account.id));
      await tx.delete(authLockouts).where(eq(authLockouts.email, account.email));
    },

    /** A new auth_sessions row (CONTRACTS §2); its id goes into the access token's `sid`. */
    openSession: (values: SessionValues, tx: DbOrTx = db) => insertSession(values, tx),
  };
}

export type PasswordSignin = ReturnType<typeof createPasswordSignin>;

/** Insert a session row: what every service's session check (sessions.ts) looks up by the token's `sid`. */
export async function insertSession(values: SessionValues, tx: DbOrTx): Promise<string> {
  const row = one(
    await tx
      .insert(authSessions)
      .values({ userId: values.userId, userAgent: values.userAgent?.slice(0, 512) ?? null, ipPrefix: ipWithoutLastOctet(values.ip), expiresAt: values.expiresAt })
      .returning({ id: authSessions.id }),
  );
  return row.id;
}

/** End a session everywhere (sign-out, refresh-token reuse); the first reason stays. */
export async function revokeSession(sessionId: string, reason: string, tx: DbOrTx): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
}
