// The SQL of accounts, sessions and refresh tokens (CONVENTIONS 7), on Drizzle's builder. Methods take plain
// values and an optional transaction; auth.service.ts holds the decisions. The password check, sign-in
// lockouts and new session rows are libs/auth password-signin.ts, shared with the admin application.
import { and, eq, isNull } from 'drizzle-orm';
import {
  accounts,
  authIdentities,
  authRefreshTokens,
  authSessions,
  familyInvitations,
  oauthExchangeCodes,
  one,
  profiles,
  userEmailPreferences,
  userGrammarSettings,
  userNotificationSettings,
  userPrivacySettings,
  userSettings,
  userVoiceSettings,
  type AccountRole,
  type Database,
  type DbOrTx,
} from '@story/db';

export function createAuthRepository(db: Database) {
  return {
    transaction: <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => db.transaction(work),

    /** passwordHash null: an account made by social sign-in, which signin never lets in by password. */
    async insertAccount(values: { email: string; passwordHash: string | null; role: AccountRole }, tx: DbOrTx = db) {
      return one(
        await tx
          .insert(accounts)
          .values({ ...values, lastSignInAt: new Date() })
          .returning({ id: accounts.id, email: accounts.email, role: accounts.role }),
      );
    },

    /** The profile and every settings row, with the spec's defaults, so they exist from the start. */
    async insertProfileAndSettings(userId: string, fullName: string | null, tx: DbOrTx = db): Promise<void> {
      await tx.insert(profiles).values({ id: userId, fullName });
      await tx.insert(userSettings).values({ userId });
      await tx.insert(userNotificationSettings).values({ userId });
      await tx.insert(userGrammarSettings).values({ userId });
      await tx.insert(userPrivacySettings).values({ userId });
      await tx.insert(userVoiceSettings).values({ userId });
      await tx.insert(userEmailPreferences).values({ userId });
    },

    async markSignedIn(accountId: string, role: AccountRole, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ role, lastSignInAt: new Date() }).where(eq(accounts.id, accountId));
    },

    async setRole(accountId: string, role: AccountRole, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ role }).where(eq(accounts.id, accountId));
    },

    /** Revoke a session unless it already is (the first reason stays). */
    async revokeSession(sessionId: string, reason: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(authSessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
    },

    async markRefreshed(sessionId: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(authSessions).set({ refreshedAt: new Date() }).where(eq(authSessions.id, sessionId));
    },

    async insertRefreshToken(sessionId: string, tokenHash: string, tx: DbOrTx = db): Promise<void> {
      await tx.insert(authRefreshTokens).values({ sessionId, tokenHash });
    },

    /** The refresh token with its session and account, the token row locked (FOR UPDATE OF) so one presentation wins. */
    async findRefreshTokenForUpdate(tokenHash: string, tx: DbOrTx = db) {
      const [found] = await tx
        .select({
          tokenId: authRefreshTokens.id,
          usedAt: authRefreshTokens.usedAt,
          sessionId: authSessions.id,
          revokedAt: authSessions.revokedAt,
          expiresAt: authSessions.expiresAt,
          userId: accounts.id,
          email: accounts.email,
          role: accounts.role,
          emailConfirmedAt: accounts.emailConfirmedAt,
          grantedRole: accounts.grantedRole,
        })
        .from(authRefreshTokens)
        .innerJoin(authSessions, eq(authSessions.id, authRefreshTokens.sessionId))
        .innerJoin(accounts, eq(accounts.id, authSessions.userId))
        .where(eq(authRefreshTokens.tokenHash, tokenHash))
        .for('update', { of: authRefreshTokens });
      return found;
    },

    async spendRefreshToken(tokenId: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(authRefreshTokens).set({ usedAt: new Date() }).where(eq(authRefreshTokens.id, tokenId));
    },

    /**
     * The first proof of the mailbox of an account made unverified (CONTRACTS §7, defence against
     * pre-account hijacking): whoever made the account before it may not be the address's owner, so every
     * way in they could hold goes, in the caller's transaction: the password, every open session (and with
     * it every refresh token), every linked social identity, the one-time codes of social sign-ins not yet
     * exchanged, and the invitations kept for it by signup-with-invitation. The session the verification itself opens comes after this and stays.
     */
    async dropPreVerificationAccess(userId: string, reason: string, tx: DbOrTx = db): Promise<{ sessionsEnded: number; identitiesUnlinked: number }> {
      const now = new Date();
      await tx.update(accounts).set({ passwordHash: null, updatedAt: now }).where(eq(accounts.id, userId));
      const sessions = await tx
        .update(authSessions)
        .set({ revokedAt: now, revokedReason: reason })
        .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
        .returning({ id: authSessions.id });
      const identities = await tx.delete(authIdentities).where(eq(authIdentities.userId, userId)).returning({ id: authIdentities.id });
      // An invitation kept for this account at signup-with-invitation was claimed by whoever signed up.
      await tx.update(familyInvitations).set({ acceptOnVerifyBy: null }).where(eq(familyInvitations.acceptOnVerifyBy, userId));
      await tx
        .update(oauthExchangeCodes)
        .set({ usedAt: now })
        .where(and(eq(oauthExchangeCodes.userId, userId), isNull(oauthExchangeCodes.usedAt)));
      return { sessionsEnded: sessions.length, identitiesUnlinked: identities.length };
    },
  };
}
