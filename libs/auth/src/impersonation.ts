// What an impersonation token may do (spec 001 Authentication 5, CONTRACTS §7). An admin acting as a user
// holds a token with an `act` claim (RFC 8693): it uses the product as the user would for at most 15
// minutes, and nothing more. The checks here are the only ones, shared by the three services:
// - admin routes refuse it (`requireRole` calls `assertNotImpersonating` before looking at the role, so every
//   admin route of every service refuses it the same way, whatever role the account holds meanwhile);
// - it never mints another session: the public routes that sign in or prove an address refuse a live
//   impersonation token sent with them (`refuseImpersonationBearer`);
// - it does nothing that cannot be undone (deleting or erasing the account, changing how it signs in,
//   buying or redeeming gifts): those routes add `refuseImpersonation`.
// Every refusal is 403 with a sentence, before anything is looked up, so it is the same whether or not
// the thing named exists.
import type { FastifyRequest } from 'fastify';
import { AppError } from '@story/http';
import { IMPERSONATION_ADMIN_REFUSAL, resolveCaller, type AuthContext, type AuthDeps } from './auth-hook';

/** True for a caller whose token carries an actor (an admin acting as this user). */
export const isImpersonating = (auth: AuthContext | null | undefined): boolean => typeof auth?.actorId === 'string';

/** The refusal of `what` (a sentence subject: "Deleting the account") for an impersonation token. */
export function impersonationRefusal(what: string, code?: string): AppError {
  return new AppError('forbidden', `${what} is not allowed while impersonating a user; only the account's owner can do this.`, code ? { code } : {});
}

/** Throw 403 when the caller is an impersonation token; `message` defaults to the admin-route sentence. */
export function assertNotImpersonating(auth: AuthContext | null | undefined, options: { what?: string; code?: string } = {}): void {
  if (!isImpersonating(auth)) return;
  if (options.what) throw impersonationRefusal(options.what, options.code);
  throw new AppError('forbidden', IMPERSONATION_ADMIN_REFUSAL, options.code ? { code: options.code } : {});
}

/** Hook after requireAuth (onRequest or preHandler): an impersonation token may not do `what`. */
export function refuseImpersonation(what: string, code?: string) {
  return async (request: FastifyRequest): Promise<void> => assertNotImpersonating(request.auth, { what, code });
}

/**
 * Hook for public routes that sign in, spend a sign-in credential or prove an address (magic link, verify
 * email, refresh, social sign-in): when the request carries a live impersonation token, 403. A missing,
 * malformed, expired or revoked token changes nothing here (clients often send a stale one along with a
 * refresh), so these routes answer everyone else exactly as before.
 */
export function refuseImpersonationBearer(deps: AuthDeps, what: string, code?: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.headers.authorization === undefined) return;
    let caller: AuthContext | null;
    try {
      caller = await resolveCaller(request, deps);
    } catch {
      return;
    }
    assertNotImpersonating(caller, { what, code });
  };
}
