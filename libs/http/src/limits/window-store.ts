// The short-window store of the limiter: @fastify/rate-limit for every service, in-process by default, Redis
// when REDIS_URL is set so limits hold across replicas. Routes name a limit of the table
// (`config: { rateLimit: rateLimit.route('core.uploads') }`); X-RateLimit-Reset is sent as epoch seconds
// (spec 001 Limits), Retry-After in seconds.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import { limitSpec, scaledMax, type WindowLimitName } from './limit-table';
import { windowRefusal } from './refusals';

type KeyGenerator = (request: FastifyRequest) => string;

/** What @fastify/rate-limit takes as a route's `config.rateLimit` (and as the global limit). */
export interface RouteLimit {
  max: number;
  timeWindow: string | number;
  keyGenerator?: KeyGenerator;
}

export interface RateLimitSetup {
  redisUrl?: string;
  /** Multiplies every limit (RATE_LIMIT_SCALE); benchmarks raise it so the plugin still runs. */
  scale: number;
  /** The service-wide limit (a name of the table, or explicit for tests), or none (routes then opt in). */
  global?: WindowLimitName | RouteLimit;
}

export interface RateLimitHandle {
  /** Route-level config for a named limit of the table: `config: { rateLimit: handle.route('core.stories') }`. */
  route(name: WindowLimitName): RouteLimit;
  redis?: Redis;
}

/** Key: the signed-in caller when known (auth runs first), else the client address. */
export const callerKey = (request: FastifyRequest): string => {
  const auth = (request as FastifyRequest & { auth?: { userId: string } }).auth;
  return auth ? `user:${auth.userId}` : `ip:${request.ip}`;
};

/** Client IP as the rate-limit key for routes used before sign-in. */
export const ipKey = (request: FastifyRequest): string => `ip:${request.ip}`;

/** The route config of a named window limit at a RATE_LIMIT_SCALE (for plugins that hold no handle). */
export function routeLimit(name: WindowLimitName, scale: number): RouteLimit {
  const spec = limitSpec(name);
  // 'caller' is the plugin's default key (callerKey); only per-address limits name their key.
  return { max: scaledMax(spec, scale), timeWindow: `1 ${spec.window}`, ...(spec.key === 'ip' ? { keyGenerator: ipKey } : {}) };
}

export async function registerRateLimit(app: FastifyInstance, setup: RateLimitSetup): Promise<RateLimitHandle> {
  const global = typeof setup.global === 'string' ? routeLimit(setup.global, setup.scale) : setup.global && { ...setup.global, max: Math.max(1, Math.floor(setup.global.max * setup.scale)) };
  let redis: Redis | undefined;
  if (setup.redisUrl) {
    redis = new Redis(setup.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit store error'));
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => undefined);
    });
  }
  const options: RateLimitPluginOptions = {
    global: !!global,
    hook: 'preHandler',
    max: global ? global.max : 1000,
    timeWindow: global?.timeWindow ?? '1 minute',
    keyGenerator: global?.keyGenerator ?? callerKey,
    ...(redis ? { redis, nameSpace: `rl:${app.serviceName ?? 'svc'}:` } : {}),
    // A broken shared store must not take the API down with it.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => windowRefusal({ max: context.max, ttlMs: context.ttl, after: context.after }),
  };
  await app.register(rateLimit, options);
  // The plugin sends seconds-until-reset; clients and spec 001 want the reset instant in epoch seconds.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const reset = reply.getHeader('x-ratelimit-reset');
    if (reset !== undefined) reply.header('x-ratelimit-reset', Math.floor(Date.now() / 1000) + Number(reset));
    done(null, payload);
  });
  return { redis, route: (name) => routeLimit(name, setup.scale) };
}
