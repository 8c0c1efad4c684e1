// The short-window store of the limiter: @fastify/rate-limit for every service, in-process by default, Redis
// when REDIS_URL is set so limits hold across replicas. Routes name a limit of the table
// (`config: { rateLimit: rateLimit.route('core.uploads') }`); X-RateLimit-Reset is sent as epoch seconds
// (spec 001 Limits), Retry-After in seconds. With Redis: a REDIS_URL that does not answer at start stops
// the service naming it; an outage later costs milliseconds (short timeouts, no offline queue) and the
// circuit breaker of fallback-store.ts counts in-process until Redis answers again.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import type { HealthCheck } from '../health';
import type { CircuitBreaker } from '../circuit-breaker';
import { createRedisBreaker, fallbackStoreClass } from './fallback-store';
import { limitSpec, scaledMax, type WindowLimitName } from './limit-table';
import { windowRefusal } from './refusals';

// The plugin's own stores (not in its typings): Redis through the breaker, LocalStore as the fallback.
const RedisStore = require('@fastify/rate-limit/store/RedisStore');
const LocalStore = require('@fastify/rate-limit/store/LocalStore');

/** How long a Redis command may take before the request is counted in-process instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** How long the breaker stays open before one request tries Redis again. */
export const REDIS_RETRY_MS = 5_000;
/** How long a service waits at start for REDIS_URL to answer. */
export const REDIS_STARTUP_TIMEOUT_MS = 5_000;

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
  /** Breaker and start timings (tests shorten them). */
  redisTimings?: { commandTimeoutMs?: number; retryMs?: number; startupTimeoutMs?: number };
}

export interface RateLimitHandle {
  /** Route-level config for a named limit of the table: `config: { rateLimit: handle.route('core.stories') }`. */
  route(name: WindowLimitName): RouteLimit;
  redis?: Redis;
  /** /health's check of the shared store (only with REDIS_URL): 'ok', or degraded while counting in-process. */
  storeCheck?: HealthCheck;
}

/** host:port of a Redis URL, for messages (never its password). */
function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return 'the configured address';
  }
}

/** Connect at start; a Redis that does not answer stops the service with one line naming REDIS_URL. */
async function connectRedis(url: string, timings: Required<NonNullable<RateLimitSetup['redisTimings']>>): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    commandTimeout: timings.commandTimeoutMs,
    // Commands fail at once while disconnected instead of waiting in a queue for the reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnect in the background while the breaker counts in-process.
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
  });
  // Errors are reported through the breaker (once per outage); without a listener ioredis would throw.
  redis.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timings.startupTimeoutMs} ms`)), timings.startupTimeoutMs);
      }),
    ]);
  } catch (err) {
    redis.disconnect();
    const e = err as { code?: string; message?: string };
    throw new Error(`REDIS_URL: Redis at ${redisAddress(url)} does not answer (${e.code ?? e.message ?? 'no answer'})`);
  } finally {
    clearTimeout(timer);
  }
  return redis;
}

function storeCheck(redis: Redis, breaker: CircuitBreaker): HealthCheck {
  return async () => {
    // Closed, or due for a retry: ask Redis (a health poll can close the breaker when no request came).
    if (breaker.allow()) {
      try {
        await redis.ping();
        breaker.success();
        return 'ok';
      } catch (err) {
        breaker.failure(err);
      }
    }
    return { status: 'degraded', store: 'in-process', error: `Redis does not answer (${breaker.lastError ?? 'circuit open'}); limits are counted per replica` };
  };
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
  let store: RateLimitPluginOptions['store'];
  let check: HealthCheck | undefined;
  const nameSpace = `rl:${app.serviceName ?? 'svc'}:`;
  if (setup.redisUrl) {
    const timings = {
      commandTimeoutMs: setup.redisTimings?.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
      retryMs: setup.redisTimings?.retryMs ?? REDIS_RETRY_MS,
      startupTimeoutMs: setup.redisTimings?.startupTimeoutMs ?? REDIS_STARTUP_TIMEOUT_MS,
    };
    const client = await connectRedis(setup.redisUrl, timings);
    redis = client;
    const breaker = createRedisBreaker({ retryMs: timings.retryMs, log: app.log });
    // A reconnect closes the breaker at once, before the next retry is due.
    client.on('ready', () => breaker.success());
    store = fallbackStoreClass({ redis: client, breaker, nameSpace, RedisStore, LocalStore }) as unknown as RateLimitPluginOptions['store'];
    check = storeCheck(client, breaker);
    app.addHook('onClose', async () => {
      // quit() waits for an answer; a Redis that is down would hold the close.
      if (client.status === 'ready') await client.quit().catch(() => undefined);
      else client.disconnect();
    });
  }
  const options: RateLimitPluginOptions = {
    global: !!global,
    hook: 'preHandler',
    max: global ? global.max : 1000,
    timeWindow: global?.timeWindow ?? '1 minute',
    keyGenerator: global?.keyGenerator ?? callerKey,
    ...(store ? { store } : {}),
    // A broken store must not take the API down with it (the Redis store falls back in-process itself).
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
  return { redis, route: (name) => routeLimit(name, setup.scale), ...(check ? { storeCheck: check } : {}) };
}
