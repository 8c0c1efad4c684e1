// Background loops of tools-api: built by buildApp (so the admin routes can wake the bulk runner) and started
// by main.ts through runService's startWorkers; stopped before the app's resources close.
import type { App } from '@story/http';
import type { ToolsApiConfig } from '../config';
import type { BulkJobRunner } from './bulk-jobs.worker';
import type { PurgeWorker } from './purge.worker';

export { createBulkJobRunner, type BulkJobRunner } from './bulk-jobs.worker';
export { createPurgeWorker, purgeExpiredContent, type PurgeResult } from './purge.worker';

declare module 'fastify' {
  interface FastifyInstance {
    toolsWorkers: { bulk: BulkJobRunner; purge: PurgeWorker };
  }
}

export function registerToolsWorkers(app: App, workers: { bulk: BulkJobRunner; purge: PurgeWorker }): void {
  app.decorate('toolsWorkers', workers);
  app.addHook('preClose', async () => {
    await Promise.all([workers.bulk.stop(), workers.purge.stop()]);
  });
}

/** runService's startWorkers. */
export function startToolsWorkers({ config, app }: { config: ToolsApiConfig; app: App }): void {
  app.toolsWorkers.bulk.start(config.workers.bulkIntervalMs);
  app.toolsWorkers.purge.start(config.workers.purgeIntervalMs);
}
