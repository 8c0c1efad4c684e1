// Security headers and CORS of spec 000 Authentication 7-8, shared by the three services.
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=()';

/** X-Frame-Options DENY, nosniff, strict-origin-when-cross-origin, Permissions-Policy, own-origin CSP. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    global: true,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    noSniff: true,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    return payload;
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
  const open: FastifyCorsOptions = { ...own, origin: '*', credentials: false, methods: ['GET'] };
  await app.register(cors, () => (request: FastifyRequest, callback: (err: Error | null, options: FastifyCorsOptions) => void) => {
    const origin = request.headers.origin;
    const isOwn = origin !== undefined && policy.origins.includes(origin);
    callback(null, !isOwn && policy.isPublic?.(request) ? open : own);
  });
}
