// Every admin route of a service refuses an impersonation token (CONTRACTS §7), found from the service's own
// OpenAPI document rather than a hand-kept list, so an admin route added later is checked without anyone
// remembering to. A route is an admin route when a plain user is refused (403) and an admin is not; each
// probe uses fresh throw-away accounts, so a route that changes or deletes its caller harms nothing. The
// impersonation token belongs to an account that holds role admin itself (a role granted while the
// impersonation runs): only the shared check, not the role, can refuse it.
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { AccessInject } from './access-matrix';
import { signToken } from './forged-tokens';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The sentence libs/auth answers on every admin route (IMPERSONATION_ADMIN_REFUSAL). */
const REFUSAL = 'Admin routes cannot be used while impersonating a user';

export interface ImpersonationProbeOptions {
  app: AccessInject;
  sql: postgres.Sql;
  jwtSecret: string;
  document: { paths?: Record<string, Record<string, unknown>> };
  /** Headers every request carries (a tools-api X-Session-ID). */
  headers?: () => Record<string, string>;
  /** `METHOD /path` of routes not to call at all (with why, in the caller's test). */
  skip?: readonly string[];
}

export interface ImpersonationProbeResult {
  /** `METHOD /path` of the routes found to be admin routes. */
  adminRoutes: string[];
  /** Admin routes that did not refuse the impersonation token with the sentence, and what they answered. */
  problems: string[];
}

async function tokenFor(sql: postgres.Sql, secret: string, role: 'user' | 'admin', actorId?: string): Promise<{ userId: string; token: string }> {
  const email = `probe.${role}.${randomUUID().slice(0, 8)}@example.test`;
  const [account] = await sql<{ id: string }[]>`insert into accounts (email, role, email_confirmed_at) values (${email}, ${role}, now()) returning id`;
  if (!account) throw new Error('probe account not inserted');
  const [session] = await sql<{ id: string }[]>`insert into auth_sessions (user_id, expires_at, user_agent) values (${account.id}, now() + interval '15 minutes', ${actorId ? 'admin-impersonation' : null}) returning id`;
  if (!session) throw new Error('probe session not inserted');
  // CONTRACTS §2 claims (and §7's act claim), signed by hand: this lib does not depend on libs/auth.
  const iat = Math.floor(Date.now() / 1000);
  const claims = { sub: account.id, email, role, sid: session.id, iat, exp: iat + 900, ...(actorId ? { act: { sub: actorId } } : {}) };
  return { userId: account.id, token: signToken(claims, secret) };
}

/** Probe every operation of the document; answers the admin routes found and the ones that let impersonation through. */
export async function probeAdminRoutesForImpersonation(options: ImpersonationProbeOptions): Promise<ImpersonationProbeResult> {
  const { app, sql, jwtSecret, document } = options;
  const skip = new Set(options.skip ?? []);
  const actingAdmin = await tokenFor(sql, jwtSecret, 'admin');
  const adminRoutes: string[] = [];
  const problems: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
      const route = `${method.toUpperCase()} ${path}`;
      if (skip.has(route)) continue;
      const url = path.replace(/\{[^}]+\}/g, () => randomUUID());
      const call = async (token: string) =>
        app.inject({ method: method.toUpperCase(), url, headers: { ...(options.headers?.() ?? {}), authorization: `Bearer ${token}` } });
      const user = await call((await tokenFor(sql, jwtSecret, 'user')).token);
      if (user.statusCode !== 403) continue;
      const admin = await call((await tokenFor(sql, jwtSecret, 'admin')).token);
      if (admin.statusCode === 403 || admin.statusCode === 401) continue;
      adminRoutes.push(route);
      const acting = await call((await tokenFor(sql, jwtSecret, 'admin', actingAdmin.userId)).token);
      if (acting.statusCode !== 403 || !acting.body.includes(REFUSAL)) problems.push(`${route}: ${acting.statusCode} ${acting.body.slice(0, 160)}`);
    }
  }
  return { adminRoutes, problems };
}
