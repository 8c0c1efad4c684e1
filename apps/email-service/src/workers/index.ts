// Wires the send-queue worker into the app: one worker per process, shared by the interval loop (started by
// main.ts through runService's startWorkers) and the cron route; stopped before the app's resources close.
import type { DbClient } from '@story/db';
import type { App } from '@story/http';
import type { EmailDelivery } from '@story/providers';
import type { EmailServiceConfig } from '../config';
import { createEmailQueueWorker, type EmailQueueWorker } from './email-queue.worker';

export { createEmailQueueWorker, type EmailQueueWorker, type BatchResult } from './email-queue.worker';

declare module 'fastify' {
  interface FastifyInstance {
    emailQueueWorker: EmailQueueWorker;
  }
}

/** Base URL of the public unsubscribe link: PUBLIC_BASE_URL, else this service's own address. */
export function publicBaseUrl(config: EmailServiceConfig): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

export function registerEmailQueueWorker(app: App, input: { config: EmailServiceConfig; database: DbClient; delivery: EmailDelivery }): EmailQueueWorker {
  const { config } = input;
  const worker = createEmailQueueWorker({
    db: input.database.db,
    sql: input.database.sql,
    delivery: input.delivery,
    from: config.email.from,
    batchSize: config.queue.batchSize,
    maxAttempts: config.queue.maxAttempts,
    unsubscribe: { baseUrl: publicBaseUrl(config), secret: config.secrets.jwtSecret },
    log: app.log.child({ component: 'email-queue' }),
  });
  app.decorate('emailQueueWorker', worker);
  // preClose runs before every onClose hook, so the batch in flight finishes while delivery and database are open.
  app.addHook('preClose', async () => worker.stop());
  return worker;
}

/** runService's startWorkers: the interval loop of the worker buildApp created. */
export function startEmailWorkers({ config, app }: { config: EmailServiceConfig; app: App }): void {
  app.emailQueueWorker.start(config.queue.intervalMs);
  // Impersonations that expired or signed out get their end recorded in the audit log within a minute.
  app.adminImpersonations.startSweep(60_000, (err) => app.log.warn({ err }, 'impersonation sweep failed'));
}
