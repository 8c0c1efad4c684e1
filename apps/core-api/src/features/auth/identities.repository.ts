// The SQL of sign-in methods (CONVENTIONS 7): the account's password and email state and its linked
// social identities. Methods take plain values and an optional transaction.
import { and, asc, eq } from 'drizzle-orm';
import { accounts, authIdentities, type AuthProvider, type Database, type DbOrTx } from '@story/db';

export function createIdentitiesRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    /** Whether the account has a password and a verified email; with lock, the account row is locked so concurrent unlinks are serialised. */
    async account(userId: string, tx: DbOrTx = db, lock = false) {
      const query = tx
        .select({ email: accounts.email, hasPassword: accounts.passwordHash, emailConfirmedAt: accounts.emailConfirmedAt })
        .from(accounts)
        .where(eq(accounts.id, userId));
      const [row] = lock ? await query.for('update') : await query;
      return row && { email: row.email, hasPassword: row.hasPassword !== null, emailVerified: row.emailConfirmedAt !== null };
    },

    async identities(userId: string, tx: DbOrTx = db) {
      return tx
        .select({ provider: authIdentities.provider, email: authIdentities.email, emailVerified: authIdentities.emailVerified, createdAt: authIdentities.createdAt })
        .from(authIdentities)
        .where(eq(authIdentities.userId, userId))
        .orderBy(asc(authIdentities.createdAt), asc(authIdentities.id));
    },

    /** Remove every identity of the provider linked to the account; the number removed. */
    async unlink(userId: string, provider: AuthProvider, tx: DbOrTx = db): Promise<number> {
      const removed = await tx
        .delete(authIdentities)
        .where(and(eq(authIdentities.userId, userId), eq(authIdentities.provider, provider)))
        .returning({ id: authIdentities.id });
      return removed.length;
    },
  };
}
