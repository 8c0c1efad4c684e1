// The SQL of magic sign-in links (CONVENTIONS 7), on Drizzle's builder: one row per request, the token and
// the address only as sha256. Methods take plain values and an optional transaction.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accounts, magicLinkTokens, one, profiles, type AccountRole, type Database, type DbOrTx } from '@story/db';

export function createMagicLinkRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    /** Serialise the requests for one address for the rest of the transaction, so concurrent ones cannot all pass the count. */
    async lockEmail(emailHash: string, tx: DbOrTx): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`magic-link:${emailHash}`}))`);
    },

    /** Requests for the address in the last hour, and seconds until the oldest leaves the window. */
    async requestWindow(emailHash: string, tx: DbOrTx = db) {
      const [window] = await tx
        .select({
          n: sql<number>`count(*)::int`,
          retryAfter: sql<number | null>`ceil(extract(epoch from min(${magicLinkTokens.createdAt}) + interval '1 hour' - now()))::int`,
        })
        .from(magicLinkTokens)
        .where(and(eq(magicLinkTokens.emailHash, emailHash), gt(magicLinkTokens.createdAt, sql`now() - interval '1 hour'`)));
      return window;
    },

    async accountWithName(email: string, tx: DbOrTx = db) {
      const [account] = await tx
        .select({ id: accounts.id, fullName: profiles.fullName })
        .from(accounts)
        .leftJoin(profiles, eq(profiles.id, accounts.id))
        .where(eq(accounts.email, email));
      return account;
    },

    async insertToken(values: { userId: string | null; emailHash: string; tokenHash: string; ttlMinutes: number }, tx: DbOrTx = db): Promise<string> {
      const { ttlMinutes, ...rest } = values;
      return one(
        await tx
          .insert(magicLinkTokens)
          .values({ ...rest, expiresAt: sql`now() + make_interval(mins => ${ttlMinutes})` })
          .returning({ id: magicLinkTokens.id }),
      ).id;
    },

    /** The token with its account, the token row locked so one presentation spends it. Rows without an account are not found. */
    async findTokenForUpdate(tokenHash: string, tx: DbOrTx = db) {
      const [found] = await tx
        .select({
          id: magicLinkTokens.id,
          emailHash: magicLinkTokens.emailHash,
          usedAt: magicLinkTokens.usedAt,
          expired: sql<boolean>`${magicLinkTokens.expiresAt} <= now()`,
          userId: accounts.id,
          email: accounts.email,
          emailConfirmedAt: accounts.emailConfirmedAt,
          grantedRole: accounts.grantedRole,
        })
        .from(magicLinkTokens)
        .innerJoin(accounts, eq(accounts.id, magicLinkTokens.userId))
        .where(eq(magicLinkTokens.tokenHash, tokenHash))
        .for('update', { of: magicLinkTokens });
      return found;
    },

    /** Spend every open link of the account: signing in with one ends the others. */
    async spendOpenTokens(userId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(magicLinkTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(magicLinkTokens.userId, userId), isNull(magicLinkTokens.usedAt)));
    },

    /** The link proved the mailbox: the email is verified (first time kept), the role follows, and this is a sign-in. */
    async markVerifiedAndSignedIn(userId: string, confirmedAt: Date, role: AccountRole, tx: DbOrTx = db): Promise<void> {
      const now = new Date();
      await tx.update(accounts).set({ emailConfirmedAt: confirmedAt, role, lastSignInAt: now, updatedAt: now }).where(eq(accounts.id, userId));
    },
  };
}
