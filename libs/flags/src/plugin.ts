// The few lines each service's buildApp calls: one flag store and one cache bus per process, decorated
// as app.flags and app.cacheBus, listening from ready until close.
import type { FastifyInstance } from 'fastify';
import type postgres from 'postgres';
import { createCacheBus, type CacheBus } from './cache-bus';
import { createFlagStore, sqlFlagSource, type FlagStore } from './store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Evaluated feature flags (libs/flags), cached 300 s, cleared through the cache bus. */
    flags: FlagStore;
    /** LISTEN/NOTIFY cache clearing across every replica of every service. */
    cacheBus: CacheBus;
  }
}

export const FLAGS_SCOPE = 'flags';

export function registerFlags(app: FastifyInstance, { sql, ttlMs }: { sql: postgres.Sql; ttlMs?: number }): { flags: FlagStore; cacheBus: CacheBus } {
  const flags = createFlagStore({ source: sqlFlagSource(sql), ...(ttlMs !== undefined ? { ttlMs } : {}) });
  const cacheBus = createCacheBus({
    sql,
    onClear: (scope, cleared) => app.log.info({ scope, cleared }, 'caches cleared'),
    onError: (err) => app.log.warn({ err }, 'cache bus: LISTEN failed; caches expire by TTL until it succeeds'),
  });
  cacheBus.register(FLAGS_SCOPE, () => flags.clear());
  app.decorate('flags', flags);
  app.decorate('cacheBus', cacheBus);
  app.addHook('onReady', async () => cacheBus.start());
  // preClose: stop listening before the database client is closed by an onClose hook.
  app.addHook('preClose', async () => cacheBus.stop());
  return { flags, cacheBus };
}
