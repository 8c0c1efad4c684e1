// email-service: shared plumbing, then its features. The queue worker is started by main.ts, not here.
import { createSessionLookup, createTokenSigner, registerAuthDecorators, requireAuth, sessionRoutes } from '@story/auth';
import { VERSION } from '@story/config';
import { pingDatabase, type DbClient } from '@story/db';
import { createEmailDelivery, type EmailDelivery } from '@story/providers';
import { createServiceApp, emailErrorRenderer, emailErrorSchema, registerHealth, type App } from '@story/http';
import type { EmailServiceConfig } from './config';

export interface EmailServiceDeps {
  database: DbClient;
  /** The delivery adapter (SMTP or .eml outbox); built from config when not given. */
  delivery?: EmailDelivery;
}

export async function buildApp({ config, deps }: { config: EmailServiceConfig; deps: EmailServiceDeps }): Promise<App> {
  const { sql } = deps.database;
  const { app } = await createServiceApp({
    name: 'email-service',
    logLevel: config.logLevel,
    render: emailErrorRenderer,
    cors: { origins: config.corsOrigins },
    rateLimit: { redisUrl: config.rateLimit.redisUrl, scale: config.rateLimit.scale, global: { max: config.limits.userPerMinute, timeWindow: '1 minute' } },
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
  const authHook = requireAuth({ tokens: createTokenSigner(config.secrets.jwtSecret), sessions: createSessionLookup(sql) });

  await registerHealth(app, {
    service: 'email-service',
    version: VERSION,
    checks: {
      database: async () => {
        await pingDatabase(sql);
        return 'ok';
      },
    },
    info: () => ({ providers: { email: delivery.provider } }),
  });

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    await authenticated.register(sessionRoutes(emailErrorSchema), { prefix: '/api/auth' });
  });

  return app;
}
