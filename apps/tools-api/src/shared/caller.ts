// Who is calling a tools route: the visitor session of X-Session-ID (CONTRACTS §6 format) and, only from
// a valid Bearer token, the signed-in account. X-User-ID is never trusted on its own. Each request with a
// session upserts its tools_sessions row: anonymous sessions end 24 hours after they start, any session
// after 30 days without activity.
import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type postgres from 'postgres';
import { resolveCaller, type AuthDeps } from '@story/auth';
import { AppError, ipWithoutLastOctet } from '@story/http';
import { toolsError } from './errors';
import { upsertToolsSession } from './sessions.repository';

export const SESSION_ID_PATTERN = /^sess_[0-9]{10,13}_[A-Za-z0-9]{6,64}$/;

export type ToolsRole = 'user' | 'support' | 'admin';

export interface ToolsCaller {
  /** The X-Session-ID (or, on optional routes, the sessionId query parameter); '' when none was sent. */
  sessionId: string;
  userId: string | null;
  role: ToolsRole | null;
  /** Client IP with the last octet (IPv4, a.b.c.0) or the last 80 bits (IPv6) removed, as stored. */
  ipPrefix: string;
  /** A short keyed hash of the full client IP: rate-limit key without keeping the address. */
  ipHash: string;
  userAgent: string | null;
}

export interface ToolsSessionDeps extends AuthDeps {
  sql: postgres.Sql;
  /** HMAC key of the per-address rate-limit key (ipHashKeyOf the service secret). */
  ipHashKey: string;
}

/** The ipHash key, derived from the JWT secret every replica shares (never the secret itself). */
export const ipHashKeyOf = (secret: string): string => createHmac('sha256', secret).update('tools-api rate-limit address key').digest('base64url');

declare module 'fastify' {
  interface FastifyRequest {
    toolsCaller: ToolsCaller | null;
  }
}

/** The stored form of the client address (libs/http client-ip: IPv4 a.b.c.0, IPv6 /48); '' when it is none. */
export const ipPrefixOf = (ip: string): string => ipWithoutLastOctet(ip) ?? '';

/**
 * The per-address rate-limit key: a keyed hash (HMAC under a key derived from the service secret), so the
 * stored key cannot be reversed by hashing the 2^32 IPv4 addresses, yet every replica computes the same one.
 */
const ipHashOf = (ip: string, key: string) => createHmac('sha256', key).update(ip).digest('base64url').slice(0, 16);

const roleOf = (role: string | undefined): ToolsRole | null => (role === 'user' || role === 'support' || role === 'admin' ? role : role ? 'user' : null);

/**
 * A session's row is written at most once per SESSION_TOUCH_MS per process: every request of a visitor
 * used to update the same tools_sessions row (one more statement and commit per request, and a hot row for
 * a visitor's concurrent requests). last_seen_at, the address prefix and the user agent are therefore up to
 * this old; the expiry of an anonymous session is fixed at its start, and a signed-in one's moves by as much.
 * A different account on the session, or an expiry passed, always writes.
 */
export const SESSION_TOUCH_MS = 60_000;
const SESSIONS_REMEMBERED = 20_000;

interface TouchedSession {
  userId: string | null;
  touchedAt: number;
  expiresAt: number;
}

const touchedBy = new WeakMap<postgres.Sql, Map<string, TouchedSession>>();

/** Keep the caller's session row alive, or refuse an expired session (SESSION_EXPIRED). */
async function touchSession(sql: postgres.Sql, caller: ToolsCaller): Promise<void> {
  let touched = touchedBy.get(sql);
  if (!touched) touchedBy.set(sql, (touched = new Map()));
  const now = Date.now();
  const known = touched.get(caller.sessionId);
  if (known && known.userId === caller.userId && now - known.touchedAt < SESSION_TOUCH_MS && now < known.expiresAt) return;
  const { alive, expiresAt } = await upsertToolsSession(sql, caller);
  if (!alive || !expiresAt) {
    touched.delete(caller.sessionId);
    throw toolsError.sessionExpired();
  }
  if (!known && touched.size >= SESSIONS_REMEMBERED) touched.delete(touched.keys().next().value as string);
  touched.set(caller.sessionId, { userId: caller.userId, touchedAt: now, expiresAt: expiresAt.getTime() });
}

async function resolve(request: FastifyRequest, deps: ToolsSessionDeps, sessionId: string): Promise<ToolsCaller> {
  const auth = await resolveCaller(request, deps);
  request.auth = auth;
  const ua = request.headers['user-agent'];
  return {
    sessionId,
    userId: auth?.userId ?? null,
    role: roleOf(auth?.role),
    ipPrefix: ipPrefixOf(request.ip),
    ipHash: ipHashOf(request.ip, deps.ipHashKey),
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
  };
}

/** Spec 002 has no code of its own for a malformed session id: INVALID_INPUT naming where it came from. */
const malformedSessionId = (field: 'X-Session-ID' | 'sessionId') => toolsError.invalidInput(field, `${field} must look like sess_<timestamp>_<random>`);

function headerSession(request: FastifyRequest): string | undefined {
  const raw = request.headers['x-session-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value === '' ? undefined : value;
}

/** Hook (onRequest or preHandler): X-Session-ID required and well-formed; a sent Bearer token must be valid. */
export function requireToolsSession(deps: ToolsSessionDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const sessionId = headerSession(request);
    if (sessionId === undefined) throw toolsError.missingSessionId();
    if (!SESSION_ID_PATTERN.test(sessionId)) throw malformedSessionId('X-Session-ID');
    const caller = await resolve(request, deps, sessionId);
    await touchSession(deps.sql, caller);
    request.toolsCaller = caller;
  };
}

/** Hook for public reads: the session may come from X-Session-ID or the sessionId query parameter, or not at all (an expired one counts as none). */
export function optionalToolsSession(deps: ToolsSessionDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const fromHeader = headerSession(request);
    const query = request.query as Record<string, unknown> | undefined;
    const fromQuery = typeof query?.['sessionId'] === 'string' && query['sessionId'] !== '' ? (query['sessionId'] as string) : undefined;
    const sessionId = fromHeader ?? fromQuery;
    if (sessionId !== undefined && !SESSION_ID_PATTERN.test(sessionId)) throw malformedSessionId(fromHeader ? 'X-Session-ID' : 'sessionId');
    const caller = await resolve(request, deps, sessionId ?? '');
    if (sessionId !== undefined) {
      try {
        await touchSession(deps.sql, caller);
      } catch (err) {
        // A public read with an expired session is just an anonymous read: no own items, no error.
        if ((err as { code?: string }).code !== 'SESSION_EXPIRED') throw err;
        caller.sessionId = '';
      }
    }
    request.toolsCaller = caller;
  };
}

/** Call once on the root instance before registering routes that use the hooks above. */
export function registerToolsCallerDecorator(app: { hasRequestDecorator(name: string): boolean; decorateRequest(name: string, value: unknown): unknown }): void {
  if (!app.hasRequestDecorator('toolsCaller')) app.decorateRequest('toolsCaller', null);
}

/** The caller resolved by requireToolsSession/optionalToolsSession (500 if no hook ran: a wiring mistake). */
export function toolsCallerOf(req: FastifyRequest): ToolsCaller {
  const caller = req.toolsCaller;
  if (!caller) throw new AppError('internal', 'tools session hook missing on this route');
  return caller;
}

export const isPrivileged = (caller: ToolsCaller) => caller.role === 'admin' || caller.role === 'support';
