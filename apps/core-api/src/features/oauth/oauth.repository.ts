// The SQL of social sign-in (CONVENTIONS 7): states in flight, one-time exchange codes, identities and
// the accounts they create or link. Methods take plain values and an optional transaction.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { accounts, authIdentities, oauthExchangeCodes, oauthStates, one, type AccountRole, type AuthProvider, type Database, type DbOrTx } from '@story/db';

export function createOAuthRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    async insertState(values: { stateHash: string; browserHash: string; provider: string; nonce: string | null; codeVerifier: string; redirectTo: string | null; ttlMinutes: number }, tx: DbOrTx = db): Promise<void> {
      const { ttlMinutes, ...rest } = values;
      // Expired states of earlier starts go with each new one, so the table stays small.
      await tx.delete(oauthStates).where(sql`${oauthStates.expiresAt} < now() - interval '1 hour'`);
      await tx.insert(oauthStates).values({ ...rest, expiresAt: sql`now() + make_interval(mins => ${ttlMinutes})` });
    },

    /** Delete and return the state (one use: a second presentation finds nothing), with whether it has expired. */
    async takeState(stateHash: string, tx: DbOrTx = db) {
      const [row] = await tx
        .delete(oauthStates)
        .where(eq(oauthStates.stateHash, stateHash))
        .returning({
          provider: oauthStates.provider,
          browserHash: oauthStates.browserHash,
          nonce: oauthStates.nonce,
          codeVerifier: oauthStates.codeVerifier,
          redirectTo: oauthStates.redirectTo,
          expired: sql<boolean>`${oauthStates.expiresAt} <= now()`,
        });
      return row;
    },

    async findIdentity(provider: AuthProvider, subject: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ identityId: authIdentities.id, userId: accounts.id, email: accounts.email, emailConfirmedAt: accounts.emailConfirmedAt })
        .from(authIdentities)
        .innerJoin(accounts, eq(accounts.id, authIdentities.userId))
        .where(and(eq(authIdentities.provider, provider), eq(authIdentities.subject, subject)));
      return row;
    },

    async findAccountByEmail(email: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ id: accounts.id, email: accounts.email, emailConfirmedAt: accounts.emailConfirmedAt, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.email, email))
        .for('update');
      return row;
    },

    /** A new account with no password (it signs in through its identity). */
    async insertAccount(values: { email: string; role: AccountRole; emailVerified: boolean }, tx: DbOrTx = db) {
      return one(
        await tx
          .insert(accounts)
          .values({ email: values.email, passwordHash: null, role: values.role, emailConfirmedAt: values.emailVerified ? new Date() : null, lastSignInAt: new Date() })
          .returning({ id: accounts.id, email: accounts.email }),
      );
    },

    async insertIdentity(values: { userId: string; provider: AuthProvider; subject: string; email: string | null; emailVerified: boolean }, tx: DbOrTx = db): Promise<void> {
      await tx.insert(authIdentities).values(values);
    },

    async updateIdentityEmail(identityId: string, email: string | null, emailVerified: boolean, tx: DbOrTx = db): Promise<void> {
      await tx.update(authIdentities).set({ email, emailVerified }).where(eq(authIdentities.id, identityId));
    },

    /** The provider proved the address: the account is verified from now on (its earlier ways in are ended by the caller). */
    async markVerified(userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ emailConfirmedAt: new Date(), updatedAt: new Date() }).where(eq(accounts.id, userId));
    },

    async insertExchangeCode(values: { codeHash: string; userId: string; provider: string; ttlSeconds: number }, tx: DbOrTx = db): Promise<void> {
      const { ttlSeconds, ...rest } = values;
      await tx.insert(oauthExchangeCodes).values({ ...rest, expiresAt: sql`now() + make_interval(secs => ${ttlSeconds})` });
    },

    /** Spend the code when it is unused and unexpired; returns its account, else undefined (and whether it existed). */
    async spendExchangeCode(codeHash: string, tx: DbOrTx = db) {
      const [spent] = await tx
        .update(oauthExchangeCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(oauthExchangeCodes.codeHash, codeHash), isNull(oauthExchangeCodes.usedAt), gt(oauthExchangeCodes.expiresAt, sql`now()`)))
        .returning({ userId: oauthExchangeCodes.userId });
      if (!spent) {
        const [known] = await tx.select({ id: oauthExchangeCodes.id }).from(oauthExchangeCodes).where(eq(oauthExchangeCodes.codeHash, codeHash));
        return { kind: known ? ('spent' as const) : ('unknown' as const) };
      }
      const [account] = await tx
        .select({ id: accounts.id, email: accounts.email, emailConfirmedAt: accounts.emailConfirmedAt, grantedRole: accounts.grantedRole })
        .from(accounts)
        .where(eq(accounts.id, spent.userId));
      return account ? { kind: 'ok' as const, account } : { kind: 'unknown' as const };
    },
  };
}
