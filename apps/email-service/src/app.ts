// email-service: shared plumbing, then its features. The queue worker is started by main.ts, not here.
import { createSessionLookup, createTokenSigner, registerAuthDecorators, requireAuth, requireRole, sessionRoutes } from '@story/auth';
import { VERSION } from '@story/config';
import { registerFlags } from '@story/flags';
import { pingDatabase, type DbClient } from '@story/db';
import { createEmailDelivery, type EmailDelivery } from '@story/providers';
import { createServiceApp, emailErrorRenderer, emailErrorSchema, probeCheck, registerHealth, type App, type ServiceOptions } from '@story/http';
import type { EmailServiceConfig } from './config';
import { registerEmailQueueWorker } from './workers';
import { createCronService } from './features/cron/cron.service';
import { cronRoutes } from './features/cron/cron.routes';
import { createWebhooksRepository } from './features/webhooks/webhooks.repository';
import { createWebhooksService } from './features/webhooks/webhooks.service';
import { webhookRoutes } from './features/webhooks/webhooks.routes';
import { createUnsubscribeService } from './features/unsubscribe/unsubscribe.service';
import { unsubscribeRoutes } from './features/unsubscribe/unsubscribe.routes';
import { createTemplatesRepository } from './features/templates/templates.repository';
import { createTemplatesService } from './features/templates/templates.service';
import { templatesRoutes } from './features/templates/templates.routes';
import { createAnalyticsRepository } from './features/analytics/analytics.repository';
import { createAnalyticsService } from './features/analytics/analytics.service';
import { analyticsRoutes } from './features/analytics/analytics.routes';
import { readQueueHealth } from './features/analytics/queue-health';
import { createAbTestsRepository } from './features/ab-tests/ab-tests.repository';
import { createAbTestsService } from './features/ab-tests/ab-tests.service';
import { abTestsRoutes } from './features/ab-tests/ab-tests.routes';
import { createUserEmailsRepository } from './features/user-emails/user-emails.repository';
import { createUserEmailsService } from './features/user-emails/user-emails.service';
import { userEmailsRoutes } from './features/user-emails/user-emails.routes';
import { registerAdminContent, registerAdminContentPublic } from './features/admin-content.register';
import { createAdminApi } from './features/admin/admin.register';
import { createAuditLog } from './features/admin/audit-log.repository';
import { registerDashboard } from './features/dashboard/dashboard.register';

export interface EmailServiceDeps {
  database: DbClient;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: ServiceOptions['logStream'];
  /** The delivery adapter (SMTP or .eml outbox); built from config when not given. */
  delivery?: EmailDelivery;
  /** Where POST /api/apply-migration reads migrations (default libs/db's folder); tests pass a copy. */
  migrationsFolder?: string;
}

export async function buildApp({ config, deps }: { config: EmailServiceConfig; deps: EmailServiceDeps }): Promise<App> {
  const { sql, db } = deps.database;
  const { app, rateLimit } = await createServiceApp({
    name: 'email-service',
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    logStream: deps.logStream,
    render: emailErrorRenderer,
    cors: { origins: config.corsOrigins },
    rateLimit: { redisUrl: config.rateLimit.redisUrl, scale: config.rateLimit.scale, global: 'email.user' },
    openapi: {
      title: 'Family Stories email service',
      version: VERSION,
      description: 'Email templates, automation, send queue, delivery webhooks, A/B tests and the admin API (spec 001).',
      bearer: true,
    },
  });
  registerAuthDecorators(app);
  const delivery = deps.delivery ?? createEmailDelivery(config.email);
  app.addHook('onClose', async () => delivery.close());
  const analytics = createAnalyticsRepository(db);
  const templates = createTemplatesRepository(db);
  const tokens = createTokenSigner(config.secrets.jwtSecret);
  const sessions = createSessionLookup(sql, { cacheMs: config.database.sessionCacheMs });
  const authHook = requireAuth({ tokens, sessions });
  const { flags, cacheBus } = registerFlags(app, { sql });
  const adminApi = createAdminApi(app, { db, tokens, rateLimit, flags, cacheBus, roleLists: config });

  await registerHealth(app, {
    service: 'email-service',
    version: VERSION,
    errorSchema: emailErrorSchema,
    // The database is required (503). SMTP is not: the queue keeps every email and retries (degraded, 200);
    // its greeting is asked at most every 30 s. Redis has a fallback (limits in-process).
    checks: {
      database: probeCheck(() => pingDatabase(sql)),
      email: { check: probeCheck(() => delivery.verify()), required: false, cacheMs: 30_000 },
      ...(rateLimit.storeCheck ? { redis: { check: rateLimit.storeCheck, required: false } } : {}),
    },
    // Queue health is reported, not failed on: a backlog needs attention, not a restart.
    info: async () => ({ providers: { email: delivery.provider }, queue: await readQueueHealth(analytics) }),
  });

  // Send pipeline (public routes at the root: cron secret, webhook signature and signed tokens guard them).
  const emailQueue = registerEmailQueueWorker(app, { config, database: deps.database, delivery });
  await app.register(cronRoutes({ cron: createCronService({ worker: emailQueue, secret: config.secrets.cronSecret, batchSize: config.queue.batchSize }) }));
  const webhooks = createWebhooksService({ webhooks: createWebhooksRepository(sql), secret: config.secrets.emailWebhookSecret });
  await app.register(webhookRoutes({ webhooks, config }));
  await app.register(unsubscribeRoutes({ unsubscribe: createUnsubscribeService({ db, secret: config.secrets.jwtSecret }) }));
  const adminContentDeps = { database: deps.database, rateLimit, migrationsFolder: deps.migrationsFolder, config, cacheBus };
  await registerAdminContentPublic(app, adminContentDeps);

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    await authenticated.register(sessionRoutes(emailErrorSchema), { prefix: '/api/auth' });
    // Admin email API: role admin only, checked in onRequest so a 403 comes before body validation.
    await authenticated.register(
      async (admin) => {
        admin.addHook('onRequest', requireRole(['admin'], 'Admin access required', 'INSUFFICIENT_PERMISSIONS'));
        const adminLimit = { rateLimit, limit: 'email.admin' as const };
        const audit = createAuditLog(db);
        await admin.register(templatesRoutes({ templates: createTemplatesService({ templates, audit }), ...adminLimit }));
        await admin.register(analyticsRoutes({ analytics: createAnalyticsService({ analytics }), ...adminLimit }));
        await admin.register(abTestsRoutes({ abTests: createAbTestsService({ abTests: createAbTestsRepository(db), templates, audit }), ...adminLimit }));
      },
      { prefix: '/api/admin/email' },
    );
    await authenticated.register(
      userEmailsRoutes({ userEmails: createUserEmailsService({ userEmails: createUserEmailsRepository(db) }), rateLimit, limit: 'email.user' }),
      { prefix: '/api/user/emails' },
    );
    // Admin application API (stats, users, impersonation, feature flags, ...): admin or support.
    await adminApi.register(authenticated);
  });
  // Admin API points 5-7 (AI management, content, support, billing, waitlist, migrations): own scope, admin|support reads.
  let llm: Awaited<ReturnType<typeof registerAdminContent>>['llm'] | undefined;
  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    ({ llm } = await registerAdminContent(authenticated, adminContentDeps));
  });
  // The admin application at /dashboard (CONTRACTS §12): its own cookie session and CSRF check, same services.
  if (!llm) throw new Error('admin content scope did not register');
  await registerDashboard(app, { database: deps.database, config, tokens, sessions, rateLimit, flags, cacheBus, impersonation: adminApi.impersonation, llm, migrationsFolder: deps.migrationsFolder });

  return app;
}
