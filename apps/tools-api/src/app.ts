// tools-api: shared plumbing, then its features. Public GET routes allow any origin (embedding sites);
// everything else only the application's own origins.
import type { FastifyRequest } from 'fastify';
import { createSessionLookup, createTokenSigner, registerAuthDecorators, requireAuth, sessionRoutes } from '@story/auth';
import { VERSION } from '@story/config';
import { pingDatabase, type DbClient } from '@story/db';
import { createProviders, describeProviders, type Providers } from '@story/providers';
import { createServiceApp, registerHealth, toolsErrorRenderer, toolsErrorSchema, type App } from '@story/http';
import type { ToolsApiConfig } from './config';

export interface ToolsApiDeps {
  database: DbClient;
  /** LLM and storage adapters; built from config when not given (tests inject fakes). */
  providers?: Providers;
}

/** GET (and its preflight) on anything but admin and auth routes is public and embeddable. */
export function isPublicRequest(request: FastifyRequest): boolean {
  const method = request.method === 'OPTIONS' ? String(request.headers['access-control-request-method'] ?? '').toUpperCase() : request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  return !path.startsWith('/api/admin') && !path.startsWith('/api/auth');
}

export async function buildApp({ config, deps }: { config: ToolsApiConfig; deps: ToolsApiDeps }): Promise<App> {
  const { sql } = deps.database;
  const { app } = await createServiceApp({
    name: 'tools-api',
    logLevel: config.logLevel,
    render: toolsErrorRenderer,
    cors: {
      origins: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Content-Type', 'Authorization', 'X-Session-ID', 'X-User-ID', 'X-Request-ID', 'Accept-Language'],
      isPublic: isPublicRequest,
    },
    rateLimit: { redisUrl: config.rateLimit.redisUrl, scale: config.rateLimit.scale, global: { max: config.limits.generalPerMinute, timeWindow: '1 minute' } },
    openapi: {
      title: 'Family Stories free tools API',
      version: VERSION,
      description: 'Free AI writing tools: generate, browse, respond, share, export, search (spec 002).',
      bearer: true,
    },
  });
  registerAuthDecorators(app);
  const providers =
    deps.providers ??
    createProviders(config, { db: deps.database.db, publicBaseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`, onUsageError: (err) => app.log.warn({ err }, 'AI usage not recorded') });
  app.addHook('onClose', async () => providers.email.close());
  const authHook = requireAuth({ tokens: createTokenSigner(config.secrets.jwtSecret), sessions: createSessionLookup(sql) });

  await registerHealth(app, {
    service: 'tools-api',
    version: VERSION,
    checks: {
      database: async () => {
        await pingDatabase(sql);
        return 'ok';
      },
      storage: async () => {
        await providers.storage.check();
        return 'ok';
      },
    },
    info: () => ({ providers: { llm: describeProviders(providers).llm, storage: providers.storage.provider } }),
  });

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    await authenticated.register(sessionRoutes(toolsErrorSchema), { prefix: '/api/auth' });
  });

  return app;
}
