// Wires the send-queue worker into the app: one worker per process, shared by the interval loop (started by
// main.ts through runService's startWorkers) and the cron route; stopped before the app's resources close.
import type { DbClient } from '@story/db';
import type { App } from '@story/http';
import type { EmailDelivery } from '@story/providers';
import type { EmailServiceConfig } from '../config';
import { createEmailQueueWorker, type EmailQueueWorker } from './email-queue.worker';
import { createQueueAlerts, type QueueAlerts } from './queue-alerts';
import { createAnalyticsRepository } from '../features/analytics/analytics.repository';
import { readQueueHealth } from '../features/analytics/queue-health';

export { createEmailQueueWorker, type EmailQueueWorker, type BatchResult } from './email-queue.worker';

declare module 'fastify' {
  interface FastifyInstance {
    emailQueueWorker: EmailQueueWorker;
    emailQueueAlerts: QueueAlerts;
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
  const analytics = createAnalyticsRepository(input.database.db);
  const alerts = createQueueAlerts({ read: () => readQueueHealth(analytics), log: app.log.child({ component: 'email-queue' }) });
  app.decorate('emailQueueAlerts', alerts);
  // preClose runs before every onClose hook, so the batch in flight finishes while delivery and database are open.
  app.addHook('preClose', async () => {
    alerts.stop();
    await worker.stop();
  });
  return worker;
}

/** runService's startWorkers: the interval loop of the worker buildApp created. */
export function startEmailWorkers({ config, app }: { config: EmailServiceConfig; app: App }): void {
  app.emailQueueWorker.start(config.queue.intervalMs);
  // Spec 001's backlog and stuck thresholds, checked every minute and logged as warnings.
  app.emailQueueAlerts.start(60_000);
  // Impersonations that expired or signed out get their end recorded in the audit log within a minute.
  app.adminImpersonations.startSweep(60_000, (err) => app.log.warn({ err }, 'impersonation sweep failed'));
}
