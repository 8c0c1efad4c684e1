// The SQL of email verification tokens (CONVENTIONS 7), on Drizzle's builder: only a token's sha256 is
// stored. Methods take plain values and an optional transaction.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accounts, emailVerificationTokens, one, profiles, type AccountRole, type Database, type DbOrTx } from '@story/db';

export function createEmailVerificationRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async insertToken(values: { userId: string; email: string; tokenHash: string; source: 'signup' | 'resend'; ttlHours: number }, tx: DbOrTx = db): Promise<string> {
      const { ttlHours, ...rest } = values;
      return one(
        await tx
          .insert(emailVerificationTokens)
          .values({ ...rest, expiresAt: sql`now() + make_interval(hours => ${ttlHours})` })
          .returning({ id: emailVerificationTokens.id }),
      ).id;
    },

    /** The token with its account, the token row locked so one presentation spends it. */
    async findTokenForUpdate(tokenHash: string, tx: DbOrTx = db) {
      const [found] = await tx
        .select({
          userId: emailVerificationTokens.userId,
          sentTo: emailVerificationTokens.email,
          usedAt: emailVerificationTokens.usedAt,
          expired: sql<boolean>`${emailVerificationTokens.expiresAt} <= now()`,
          email: accounts.email,
          emailConfirmedAt: accounts.emailConfirmedAt,
          grantedRole: accounts.grantedRole,
        })
        .from(emailVerificationTokens)
        .innerJoin(accounts, eq(accounts.id, emailVerificationTokens.userId))
        .where(eq(emailVerificationTokens.tokenHash, tokenHash))
        .for('update', { of: emailVerificationTokens });
      return found;
    },

    /** Spend every open token of the account. */
    async spendOpenTokens(userId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(emailVerificationTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
    },

    async markVerified(userId: string, confirmedAt: Date, role: AccountRole, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ emailConfirmedAt: confirmedAt, role, updatedAt: new Date() }).where(eq(accounts.id, userId));
    },

    /** Serialise one account's resends for the rest of the transaction, or concurrent requests could all pass the count. */
    async lockResends(userId: string, tx: DbOrTx): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`verify-resend:${userId}`}))`);
    },

    async accountWithName(userId: string, tx: DbOrTx = db) {
      const [account] = await tx
        .select({ id: accounts.id, email: accounts.email, role: accounts.role, emailConfirmedAt: accounts.emailConfirmedAt, fullName: profiles.fullName })
        .from(accounts)
        .leftJoin(profiles, eq(profiles.id, accounts.id))
        .where(eq(accounts.id, userId));
      return account;
    },

    /** Resends of the last hour, and seconds until the oldest of them leaves the window. */
    async resendWindow(userId: string, tx: DbOrTx = db) {
      const [window] = await tx
        .select({
          n: sql<number>`count(*)::int`,
          retryAfter: sql<number | null>`ceil(extract(epoch from min(${emailVerificationTokens.createdAt}) + interval '1 hour' - now()))::int`,
        })
        .from(emailVerificationTokens)
        .where(
          and(
            eq(emailVerificationTokens.userId, userId),
            eq(emailVerificationTokens.source, 'resend'),
            gt(emailVerificationTokens.createdAt, sql`now() - interval '1 hour'`),
          ),
        );
      return window;
    },
  };
}
