// Background work of tools-api: one runner of libs/jobs on the `tools` queue with two kinds (admin bulk
// generation and the recurring expiry purge, plus the search engine's sync when SEARCH_PROVIDER names one). buildApp creates it (so the admin routes can queue and wake
// it, and tests can drain it); main.ts starts it through runService's startWorkers; it stops before the
// app's resources close.
import type postgres from 'postgres';
import type { App } from '@story/http';
import { createJobRunner, type JobDefinition, type JobRunner } from '@story/jobs';
import type { ObjectStorage } from '@story/providers';
import type { ToolsApiConfig } from '../config';
import type { GenerateService } from '../features/generate/generate.service';
import { bulkGenerateJob, type WorkerLog } from './bulk-jobs.worker';
import { purgeJob } from './purge.worker';

export { BULK_JOB_KIND, bulkGenerateJob } from './bulk-jobs.worker';
export { PURGE_JOB_KIND, purgeExpiredContent, purgeJob, type PurgeResult } from './purge.worker';

declare module 'fastify' {
  interface FastifyInstance {
    toolsJobs: JobRunner;
  }
}

export function createToolsJobRunner(deps: {
  sql: postgres.Sql;
  generate: GenerateService;
  storage: Pick<ObjectStorage, 'delete'>;
  log: WorkerLog;
  purgeIntervalMs: number;
  /** More kinds on the same queue (the search engine's sync when one is configured). */
  extraJobs?: JobDefinition<Record<string, never>>[];
}): JobRunner {
  return createJobRunner({
    sql: deps.sql,
    queue: 'tools',
    log: deps.log,
    jobs: [bulkGenerateJob(deps), purgeJob({ ...deps, everySeconds: Math.max(1, Math.round(deps.purgeIntervalMs / 1000)) }), ...(deps.extraJobs ?? [])],
  });
}

export function registerToolsWorkers(app: App, runner: JobRunner): void {
  app.decorate('toolsJobs', runner);
  app.addHook('preClose', async () => {
    await runner.stop();
  });
}

/** runService's startWorkers. */
export function startToolsWorkers({ config, app }: { config: ToolsApiConfig; app: App }): void {
  app.toolsJobs.start(config.workers.pollIntervalMs);
}
