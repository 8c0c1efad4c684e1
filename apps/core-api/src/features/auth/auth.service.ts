// Accounts and sessions (CONTRACTS §2): signup with profile and settings rows in one transaction,
// sign-in with lockout, refresh-token rotation with reuse detection, and sign-out that revokes.
// Roles follow roleForAccount (libs/auth): listed in ADMIN_EMAILS/SUPPORT_EMAILS and verified (§7).
import { createHash, randomBytes } from 'node:crypto';
import { createPasswordSignin, hashPassword, roleForAccount, type RoleLists, type TokenSigner } from '@story/auth';
import { isUniqueViolation, type AccountRole, type Database, type DbOrTx } from '@story/db';
import { triggerUserSignup } from '@story/email';
import { createEmailVerification } from './email-verification';
import { createMagicLinks } from './magic-link';
import { AppError, ipWithoutLastOctet } from '@story/http';
import { createAuthRepository } from './auth.repository';
import { toUser, type AccountView, type AuthResult, type ClientMeta } from './auth.schemas';

export type { ClientMeta } from './auth.schemas';

export interface AuthServiceDeps {
  db: Database;
  tokens: Pick<TokenSigner, 'sign'>;
  /** ADMIN_EMAILS and SUPPORT_EMAILS: roles held only while listed and verified. */
  roles: RoleLists;
  /** The web application, for the welcome and verification emails' links. */
  appUrl: string;
  sessionDays: number;
  /** Called when an email reaches the lockout threshold (spec: alert after 5 attempts). */
  onLockout?: (email: string) => void;
  /** RATE_LIMIT_SCALE, for the limits this service counts itself (magic links per email). */
  limitScale?: number;
  /** email-verification's hook: a first verification by one of the account's own sessions (its transaction). */
  onVerifiedBySession?: (userId: string, tx: DbOrTx) => Promise<unknown>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newRefreshToken = () => randomBytes(32).toString('base64url');

/** Stored IP addresses have their last octet (IPv6: last 80 bits) removed (spec 000 Authentication 10): libs/http client-ip. */
export const ipPrefix = (ip: string | undefined): string | null => ipWithoutLastOctet(ip);

const unauthorized = (details?: string) => new AppError('unauthorized', 'Unauthorized', details ? { details } : {});

export function createAuthService({ db, tokens, roles, appUrl, sessionDays, onLockout, limitScale, onVerifiedBySession }: AuthServiceDeps) {
  const roleOf = (account: { email: string; emailVerified: boolean; grantedRole?: string | null }): AccountRole => roleForAccount(account, roles);
  const verification = createEmailVerification({ db, appUrl, roleOf, onVerifiedBySession });
  const repo = createAuthRepository(db);

  async function issue(tx: DbOrTx, account: AccountView, sessionId: string): Promise<AuthResult> {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken(sessionId, sha256(refresh), tx);
    const access = await tokens.sign({ userId: account.id, email: account.email, role: account.role, sessionId });
    return {
      user: toUser(account),
      session: { access_token: access.token, token_type: 'bearer', expires_in: access.expiresIn, expires_at: access.expiresAt, refresh_token: refresh },
    };
  }

  // The password check, lockout and session row are libs/auth's, shared with email-service's admin application.
  const passwords = createPasswordSignin({ db, roles, onLockout });

  async function openSession(tx: DbOrTx, account: AccountView, meta: ClientMeta): Promise<AuthResult> {
    const sessionId = await passwords.openSession({ userId: account.id, userAgent: meta.userAgent, ip: meta.ip, expiresAt: new Date(Date.now() + sessionDays * 86_400_000) }, tx);
    return issue(tx, account, sessionId);
  }

  const magicLinks = createMagicLinks({ db, appUrl, roleOf, openSession, limitScale });

  return {
    /** A session for an account, inside the caller's transaction: what signin answers (magic links and social sign-in reuse it). */
    openSession,

    /**
     * `within` runs inside the signup transaction once the account and its rows exist (signup with an
     * invitation accepts it there): if it throws, no account is made.
     */
    async signup<T = undefined>(
      input: { email: string; password: string; fullName?: string },
      meta: ClientMeta,
      within?: (tx: DbOrTx, account: { id: string; email: string }) => Promise<T>,
    ): Promise<AuthResult & { within?: T }> {
      const passwordHash = await hashPassword(input.password);
      // A new address is unverified, so a listed email starts as user like any other (CONTRACTS §7).
      const role = roleOf({ email: input.email, emailVerified: false });
      try {
        return await repo.transaction(async (tx) => {
          const account = await repo.insertAccount({ email: input.email, passwordHash, role }, tx);
          const userId = account.id;
          // Every settings row exists from the start, with the spec's defaults.
          await repo.insertProfileAndSettings(userId, input.fullName ?? null, tx);
          // Queued in the same transaction (CONTRACTS §5): no account without its welcome, no welcome without an account.
          const firstName = input.fullName?.split(/\s+/)[0] ?? 'there';
          await triggerUserSignup(tx, userId, { user_name: firstName, onboarding_url: `${appUrl}/onboarding` });
          await verification.send(tx, { userId, email: account.email, userName: firstName, source: 'signup' });
          const extra = within ? { within: await within(tx, { id: userId, email: account.email }) } : {};
          return { ...(await openSession(tx, { ...account, emailVerified: false }, meta)), ...extra };
        });
      } catch (err) {
        if (isUniqueViolation(err, 'accounts_email_key')) {
          throw new AppError('conflict', 'An account with this email already exists', { field: 'email' });
        }
        throw err;
      }
    },

    async signin(input: { email: string; password: string }, meta: ClientMeta): Promise<AuthResult> {
      const account = await passwords.check(input.email, input.password);
      return repo.transaction(async (tx) => {
        await passwords.markSignedIn(account, tx);
        return openSession(tx, account, meta);
      });
    },

    /** Rotate: the presented token is spent; presenting a spent token again revokes the session. */
    async refresh(refreshToken: string): Promise<AuthResult> {
      const hash = sha256(refreshToken);
      const outcome = await repo.transaction(async (tx) => {
        const found = await repo.findRefreshTokenForUpdate(hash, tx);
        if (!found || found.revokedAt || found.expiresAt <= new Date()) return { kind: 'invalid' as const };
        if (found.usedAt) {
          // Reuse of a rotated token: someone else holds a copy. End the session for both.
          await repo.revokeSession(found.sessionId, 'refresh_token_reuse', tx);
          return { kind: 'reused' as const };
        }
        await repo.spendRefreshToken(found.tokenId, tx);
        await repo.markRefreshed(found.sessionId, tx);
        // The role is decided again at each refresh: verified since, or taken off a list since.
        const emailVerified = found.emailConfirmedAt !== null;
        const role = roleOf({ email: found.email, emailVerified, grantedRole: found.grantedRole });
        if (role !== found.role) await repo.setRole(found.userId, role, tx);
        return { kind: 'ok' as const, result: await issue(tx, { id: found.userId, email: found.email, role, emailVerified }, found.sessionId) };
      });
      if (outcome.kind === 'ok') return outcome.result;
      throw unauthorized(outcome.kind === 'reused' ? 'Refresh token was already used; the session has been ended' : 'Invalid or expired refresh token');
    },

    /** POST /verify-email: spend a token; the account it belongs to is verified (and gets its role). */
    verifyEmail: (token: string, callerId?: string) => verification.verify(token, callerId),

    /** POST /resend-verification: a new link for the caller, 3 per hour; nothing when already verified. */
    resendVerification: (userId: string) => verification.resend(userId),

    /** POST /magic-link: the same answer whatever the address; an email only when an account has it. */
    requestMagicLink: (email: string) => magicLinks.request(email),

    /** POST /magic-link/verify: spend the link and sign in as signin does; the email becomes verified. */
    verifyMagicLink: (token: string, meta: ClientMeta) => magicLinks.verify(token, meta),

    async signout(sessionId: string): Promise<void> {
      await repo.revokeSession(sessionId, 'signout');
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
