// Who is signed in to the admin application (CONTRACTS §12, spec 001 Authentication 2 and 5). Sign-in uses
// the credentials, lockout and session rows of core-api (libs/auth password-signin), so the dashboard
// session is an ordinary auth_sessions row of 24 hours (CONTRACTS §2): signing out anywhere, or revoking
// the row, ends it on the next request, through the same session check every service makes. The cookie
// holds the session's access token (an HS256 JWT, as core-api issues), HttpOnly, SameSite=Strict, Secure
// and __Host- prefixed in production. Only role admin or support gets in; an impersonation token never does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse, serialize, type SerializeOptions } from 'cookie';
import { ACCESS_TOKEN_TTL_SECONDS, revokeSession, type PasswordSignin, type SessionLookup, type TokenSigner } from '@story/auth';
import type { Database } from '@story/db';
import { AppError } from '@story/http';

export type DashboardRole = 'admin' | 'support';

export interface DashboardUser {
  userId: string;
  email: string;
  role: DashboardRole;
  sessionId: string;
  /** Epoch seconds: the token's (and the session row's) end. */
  expiresAt: number;
}

/** Why there is no signed-in user: no cookie, or one that no longer works (expired, signed out, revoked, role gone). */
export type NoUser = 'none' | 'ended' | 'no_role';

export const isDashboardRole = (role: string): role is DashboardRole => role === 'admin' || role === 'support';

export interface DashboardSessionsDeps {
  db: Database;
  tokens: Pick<TokenSigner, 'sign' | 'verify'>;
  sessions: SessionLookup;
  signin: PasswordSignin;
  /** NODE_ENV=production: Secure cookies with the __Host- prefix. */
  secure: boolean;
}

export function createDashboardSessions({ db, tokens, sessions, signin, secure }: DashboardSessionsDeps) {
  const names = secure ? { session: '__Host-story_admin', nonce: '__Host-story_admin_signin' } : { session: 'story_admin', nonce: 'story_admin_signin' };
  const base: SerializeOptions = { httpOnly: true, sameSite: 'strict', secure, path: '/' };
  const cookiesOf = (request: FastifyRequest) => {
    const header = request.headers.cookie;
    return header ? parse(header) : {};
  };

  return {
    names,

    /** The signed-in user behind the request's cookie, or why there is none. */
    async resolve(request: FastifyRequest): Promise<DashboardUser | NoUser> {
      const token = cookiesOf(request)[names.session];
      if (!token) return 'none';
      const claims = await tokens.verify(token);
      // An impersonation token (act claim) acts as a user: it never opens the admin application.
      if (!claims || claims.act) return 'ended';
      const session = await sessions.findActive(claims.sid);
      if (!session || session.userId !== claims.sub) return 'ended';
      // The role comes from the account row now, not from the token: a role taken away ends access at once.
      if (!isDashboardRole(session.role)) return 'no_role';
      return { userId: session.userId, email: session.email, role: session.role, sessionId: claims.sid, expiresAt: claims.exp };
    },

    /**
     * Check the credentials (401 with the same lockout as core-api, 429 while locked); refuse an account
     * without role admin or support (403, no session made); else open a 24-hour session and sign its token.
     */
    async signIn(email: string, password: string, meta: { ip?: string; userAgent?: string }): Promise<{ token: string; user: DashboardUser }> {
      const account = await signin.check(email, password);
      if (!isDashboardRole(account.role)) {
        throw new AppError('forbidden', 'This account cannot use the admin application: it needs role admin or support (held by a verified email).', { code: 'INSUFFICIENT_PERMISSIONS' });
      }
      const role = account.role;
      const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      const sessionId = await db.transaction(async (tx) => {
        await signin.markSignedIn(account, tx);
        return signin.openSession({ userId: account.id, ip: meta.ip, userAgent: meta.userAgent, expiresAt }, tx);
      });
      const signed = await tokens.sign({ userId: account.id, email: account.email, role, sessionId });
      return { token: signed.token, user: { userId: account.id, email: account.email, role, sessionId, expiresAt: signed.expiresAt } };
    },

    /** Sign-out: the session row is revoked, so the token stops working in every service. */
    async signOut(sessionId: string): Promise<void> {
      await revokeSession(sessionId, 'signout', db);
    },

    setSession(reply: FastifyReply, token: string): void {
      reply.header('set-cookie', serialize(names.session, token, { ...base, maxAge: ACCESS_TOKEN_TTL_SECONDS }));
    },

    clearSession(reply: FastifyReply): void {
      reply.header('set-cookie', serialize(names.session, '', { ...base, maxAge: 0 }));
    },

    /** The sign-in form's nonce (its CSRF binding), set when missing; two hours is plenty to type a password. */
    signinNonce(request: FastifyRequest): string | undefined {
      return cookiesOf(request)[names.nonce];
    },
    setSigninNonce(reply: FastifyReply, nonce: string): void {
      reply.header('set-cookie', serialize(names.nonce, nonce, { ...base, maxAge: 2 * 60 * 60 }));
    },
  };
}

export type DashboardSessions = ReturnType<typeof createDashboardSessions>;
