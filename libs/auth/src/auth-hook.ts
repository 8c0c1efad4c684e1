// The one auth hook of the three services. Register it in an encapsulated scope that holds the
// authenticated routes (CONVENTIONS 2); routes read request.auth.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@story/http';
import type { SessionLookup } from './sessions';
import type { TokenSigner } from './tokens';

/** The sentence every admin route answers an impersonation token with (impersonation.ts holds the other checks). */
export const IMPERSONATION_ADMIN_REFUSAL = 'Admin routes cannot be used while impersonating a user';

export interface AuthContext {
  userId: string;
  email: string;
  role: string;
  sessionId: string;
  /** Set on an impersonation token: the admin acting as this user (the token's `act.sub`). */
  actorId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller; null on public routes without a token. */
    auth: AuthContext | null;
  }
}

export interface AuthDeps {
  tokens: Pick<TokenSigner, 'verify'>;
  sessions: SessionLookup;
}

const unauthorized = () => new AppError('unauthorized', 'Unauthorized');

/** Decorate requests with `auth` (call once on the root instance). */
export function registerAuthDecorators(app: FastifyInstance): void {
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
}

/** Verify a Bearer token and its session; null when no Authorization header was sent. */
export async function resolveCaller(request: FastifyRequest, deps: AuthDeps): Promise<AuthContext | null> {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const token = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header)?.[1];
  if (!token) throw unauthorized();
  const claims = await deps.tokens.verify(token);
  if (!claims) throw unauthorized();
  const session = await deps.sessions.findActive(claims.sid);
  if (!session || session.userId !== claims.sub) throw unauthorized();
  if (claims.act) {
    // Every service's request log names the acting admin. The binding is added to the request's own child
    // logger, which Fastify also gave the reply, so the "request completed" line (written through
    // reply.log) carries it too; a logger without setBindings gets a child (request lines only).
    const log = request.log as FastifyBaseLogger & { setBindings?: (bindings: Record<string, unknown>) => void };
    if (typeof log.setBindings === 'function') log.setBindings({ actingAdminId: claims.act.sub });
    else request.log = request.log.child({ actingAdminId: claims.act.sub });
    return { userId: session.userId, email: session.email, role: session.role, sessionId: claims.sid, actorId: claims.act.sub };
  }
  return { userId: session.userId, email: session.email, role: session.role, sessionId: claims.sid };
}

/** onRequest hook: a valid token is required. */
export function requireAuth(deps: AuthDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const caller = await resolveCaller(request, deps);
    if (!caller) throw unauthorized();
    request.auth = caller;
  };
}

/** onRequest hook: a token is optional, but one that is sent must be valid. */
export function optionalAuth(deps: AuthDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    request.auth = await resolveCaller(request, deps);
  };
}

/**
 * Hook after requireAuth: only these roles pass (403 otherwise). The one admin check of all three services
 * (CONTRACTS §7): an impersonation token is refused first, whatever role its account holds meanwhile.
 */
export function requireRole(roles: readonly string[], message = 'Admin access required', code?: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.auth) throw unauthorized();
    if (request.auth.actorId !== undefined) throw new AppError('forbidden', IMPERSONATION_ADMIN_REFUSAL, code ? { code } : {});
    if (!roles.includes(request.auth.role)) throw new AppError('forbidden', message, code ? { code } : {});
  };
}

/** The verified caller of a route in an authenticated scope (401 if the scope was misconfigured). */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
