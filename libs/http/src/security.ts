// Security headers and CORS of spec 000 Authentication 7-8, shared by the three services.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/**
 * The security headers of spec 000 Authentication 8, computed once. (@fastify/helmet rebuilt them on
 * every request and cut throughput by three quarters in our benchmark; these values never change.)
 * A route may override one (the /docs page sets its own CSP; embeddable pages relax framing).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Content-Security-Policy': "default-src 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; img-src 'self' data:",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-DNS-Prefetch-Control': 'off',
});

/**
 * A request whose answer is one person's: it carries a Bearer token, a cookie (the admin dashboard's session)
 * or a tools session (X-Session-ID or ?sessionId, which unlock the session's own private items), or it is a
 * sign-in route (/api/auth/...: answers that hand out tokens, RFC 6749 §5.1).
 */
export function isPersonalRequest(request: FastifyRequest): boolean {
  const h = request.headers;
  if (h.authorization !== undefined || h.cookie !== undefined || h['x-session-id'] !== undefined) return true;
  if (request.url.startsWith('/api/auth/')) return true;
  const query = request.query as Record<string, unknown> | undefined;
  return query !== undefined && query !== null && typeof query === 'object' && query['sessionId'] !== undefined;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const NO_STORE = /(^|[\s,])no-store\b/i;

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // Callback style, not async: this runs on every request, and a promise per hook shows in the profile.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
  // A personal JSON answer (errors included) is kept by no cache, shared or the browser's (RFC 9111 §5.2.2.5):
  // Cache-Control: no-store, whatever a route set. Files and pages keep their own policies.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPersonalRequest(request) && JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) {
      const current = reply.getHeader('cache-control');
      if (current === undefined || !NO_STORE.test(String(current))) reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}

export interface CorsPolicy {
  /** The application's own origins: credentials allowed. */
  origins: string[];
  methods?: string[];
  allowedHeaders?: string[];
  exposedHeaders?: string[];
  /** Requests for which any origin is allowed, without credentials (tools-api public GET routes). */
  isPublic?: (request: FastifyRequest) => boolean;
}

export const DEFAULT_CORS_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
export const DEFAULT_CORS_HEADERS = ['Content-Type', 'Authorization'];

export async function registerCors(app: FastifyInstance, policy: CorsPolicy): Promise<void> {
  const own: FastifyCorsOptions = {
    origin: policy.origins,
    credentials: true,
    methods: policy.methods ?? DEFAULT_CORS_METHODS,
    allowedHeaders: policy.allowedHeaders ?? DEFAULT_CORS_HEADERS,
    exposedHeaders: policy.exposedHeaders ?? ['X-Request-ID', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  };
  const isPublic = policy.isPublic;
  // Static options unless some requests are public: the per-request delegator costs throughput.
  if (!isPublic) {
    await app.register(cors, own);
    return;
  }
  const open: FastifyCorsOptions = { ...own, origin: '*', credentials: false, methods: ['GET'] };
  await app.register(cors, () => (request: FastifyRequest, callback: (err: Error | null, options: FastifyCorsOptions) => void) => {
    const origin = request.headers.origin;
    const isOwn = origin !== undefined && policy.origins.includes(origin);
    callback(null, !isOwn && isPublic(request) ? open : own);
  });
}
