// The Redis store of the short-window limiter, with a circuit breaker in front of it (policy in
// docs/reliability.md "Redis outage"):
// - Redis answers: every replica counts in Redis, so a limit holds across replicas.
// - Redis fails (refused, reset, or no answer within COMMAND_TIMEOUT_MS): the breaker opens and every
//   request is counted in-process at once, without touching Redis, so an outage costs a request
//   microseconds instead of a connect timeout. Each replica then holds the limit on its own (N replicas
//   allow up to N times the limit); nothing is refused because the store is down.
// - After `retryMs` one request tries Redis again (half-open); an answer closes the breaker.
// The change of state is logged once each way, never per request (libs/http circuit-breaker.ts).
import type Redis from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { createCircuitBreaker, type CircuitBreaker } from '../circuit-breaker';

type Callback = (err: Error | null, res: { current: number; ttl: number } | null) => void;

/** The store contract of @fastify/rate-limit (its LocalStore and RedisStore implement it). */
export interface RateLimitStore {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read?(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): RateLimitStore;
}

type StoreClass = new (...args: never[]) => RateLimitStore;

/** The breaker of the Redis store: its changes of state are logged once each way. */
export function createRedisBreaker(options: { retryMs: number; log: Pick<FastifyBaseLogger, 'warn' | 'info'> }): CircuitBreaker {
  return createCircuitBreaker({
    retryMs: options.retryMs,
    onOpen: (reason) =>
      options.log.warn(
        { store: 'redis', reason },
        'rate-limit store: Redis does not answer; limits are counted in-process by each replica until it does (checked again every few seconds)',
      ),
    onClose: () => options.log.info({ store: 'redis' }, 'rate-limit store: Redis answers again; limits are shared across replicas again'),
  });
}

/**
 * Build the store class @fastify/rate-limit instantiates (its `store` option): Redis through the breaker,
 * the plugin's own in-process LocalStore whenever the breaker says no or Redis fails.
 */
export function fallbackStoreClass(deps: { redis: Redis; breaker: CircuitBreaker; nameSpace: string; RedisStore: StoreClass; LocalStore: StoreClass }): StoreClass {
  const { breaker } = deps;
  class FallbackStore implements RateLimitStore {
    constructor(
      private readonly remote: RateLimitStore,
      private readonly local: RateLimitStore,
    ) {}

    private route(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
      const local = () => {
        const fn = this.local[method];
        if (fn) fn.call(this.local, key, cb, timeWindow, max);
        else cb(null, { current: 0, ttl: 0 });
      };
      const remoteFn = this.remote[method];
      if (!remoteFn || !breaker.allow()) return local();
      remoteFn.call(
        this.remote,
        key,
        (err, res) => {
          if (err) {
            breaker.failure(err);
            return local();
          }
          breaker.success();
          cb(null, res);
        },
        timeWindow,
        max,
      );
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('incr', key, cb, timeWindow, max);
    }

    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.route('read', key, cb, timeWindow, max);
    }

    child(routeOptions: Record<string, unknown>): RateLimitStore {
      return new FallbackStore(this.remote.child(routeOptions), this.local.child(routeOptions));
    }
  }
  // What the plugin calls with its global parameters (continueExceeding, exponentialBackoff, cache).
  return class GlobalFallbackStore extends FallbackStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number }) {
      const Remote = deps.RedisStore as unknown as new (c?: boolean, e?: boolean, r?: Redis, k?: string) => RateLimitStore;
      const Local = deps.LocalStore as unknown as new (c?: boolean, e?: boolean, cache?: number) => RateLimitStore;
      super(new Remote(params.continueExceeding, params.exponentialBackoff, deps.redis, deps.nameSpace), new Local(params.continueExceeding, params.exponentialBackoff, params.cache));
    }
  } as unknown as StoreClass;
}
