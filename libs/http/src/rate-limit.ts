// @fastify/rate-limit for every service: in-process by default, Redis when REDIS_URL is set so limits
// hold across replicas. X-RateLimit-Reset is sent as epoch seconds (spec 001 Limits), Retry-After in seconds.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import { AppError } from './errors';

export interface RateLimitSetup {
  redisUrl?: string;
  /** Multiplies every limit (RATE_LIMIT_SCALE); benchmarks raise it so the plugin still runs. */
  scale: number;
  /** The service-wide limit, or none (routes then opt in with config.rateLimit). */
  global?: { max: number; timeWindow: string | number; keyGenerator?: (request: FastifyRequest) => string };
}

export interface RateLimitHandle {
  /** Route-level config for a named limit: `config: { rateLimit: handle.limit(5, '1 minute') }`. */
  limit(max: number, timeWindow: string | number, keyGenerator?: (request: FastifyRequest) => string): { max: number; timeWindow: string | number; keyGenerator?: (r: FastifyRequest) => string };
  redis?: Redis;
}

/** Key: the signed-in caller when known (auth runs first), else the client address. */
export const callerKey = (request: FastifyRequest): string => {
  const auth = (request as FastifyRequest & { auth?: { userId: string } }).auth;
  return auth ? `user:${auth.userId}` : `ip:${request.ip}`;
};

export async function registerRateLimit(app: FastifyInstance, setup: RateLimitSetup): Promise<RateLimitHandle> {
  const scale = (max: number) => Math.max(1, Math.floor(max * setup.scale));
  let redis: Redis | undefined;
  if (setup.redisUrl) {
    redis = new Redis(setup.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'rate-limit store error'));
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => undefined);
    });
  }
  const options: RateLimitPluginOptions = {
    global: !!setup.global,
    hook: 'preHandler',
    max: setup.global ? scale(setup.global.max) : 1000,
    timeWindow: setup.global?.timeWindow ?? '1 minute',
    keyGenerator: setup.global?.keyGenerator ?? callerKey,
    ...(redis ? { redis, nameSpace: `rl:${app.serviceName ?? 'svc'}:` } : {}),
    // A broken shared store must not take the API down with it.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Too many requests. Try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
        details: { limit: context.max, retryAfter: Math.ceil(context.ttl / 1000) },
      }),
  };
  await app.register(rateLimit, options);
  // The plugin sends seconds-until-reset; clients and spec 001 want the reset instant in epoch seconds.
  app.addHook('onSend', async (_request, reply, payload) => {
    const reset = reply.getHeader('x-ratelimit-reset');
    if (reset !== undefined) reply.header('x-ratelimit-reset', Math.floor(Date.now() / 1000) + Number(reset));
    return payload;
  });
  return {
    redis,
    limit: (max, timeWindow, keyGenerator) => ({ max: scale(max), timeWindow, ...(keyGenerator ? { keyGenerator } : {}) }),
  };
}
