// tools-api: shared plumbing, then its features. Public GET routes allow any origin (embedding sites);
// everything else only the application's own origins. Workers (purge, bulk jobs) are started by main.ts.
import type { FastifyRequest } from 'fastify';
import { createSessionLookup, createTokenSigner, registerAuthDecorators, requireAuth, sessionRoutes } from '@story/auth';
import { VERSION } from '@story/config';
import { pingDatabase, type DbClient } from '@story/db';
import { createProviders, describeProviders, registerLlmCache, type Providers } from '@story/providers';
import { registerFlags } from '@story/flags';
import { closeTypesetter } from '@story/pdf';
import { createServiceApp, probeCheck, registerHealth, toolsErrorRenderer, toolsErrorSchema, type App, type ServiceOptions } from '@story/http';
import { toolsPublicBaseUrl, type ToolsApiConfig } from './config';
import { ipHashKeyOf, registerToolsCallerDecorator } from './shared/caller';
import type { ToolsFeatureDeps } from './shared/deps';
import { registerEnvelopeTiming } from './shared/envelope';
import { createGenerateService } from './features/generate/generate.service';
import { generateRoutes } from './features/generate/generate.routes';
import { createBrowseService } from './features/browse/browse.service';
import { browseRoutes } from './features/browse/browse.routes';
import { pagesRoutes } from './features/pages/pages.routes';
import { uploadsRoutes } from './features/uploads/uploads.routes';
import { createAdminService } from './features/admin/admin.service';
import { adminRoutes } from './features/admin/admin.routes';
import { responsesRoutes } from './features/responses/responses.routes';
import { shareRoutes } from './features/share/share.routes';
import { analyticsRoutes } from './features/analytics/analytics.routes';
import { exportRoutes } from './features/export/export.routes';
import { createSearchProvider } from './features/search/search.provider';
import { searchRoutes } from './features/search/search.routes';
import { SAMPLE_INPUTS } from './tools';
import { BULK_JOB_KIND, createToolsJobRunner, registerToolsWorkers } from './workers';

export interface ToolsApiDeps {
  database: DbClient;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: ServiceOptions['logStream'];
  /** LLM and storage adapters; built from config when not given (tests inject fakes). */
  providers?: Providers;
  /** How long search leaves an unanswering Meilisearch alone before trying it again (tests shorten it). */
  searchRetryMs?: number;
}

/** GET (and its preflight) on anything but admin and auth routes is public and embeddable. */
export function isPublicRequest(request: FastifyRequest): boolean {
  const method = request.method === 'OPTIONS' ? String(request.headers['access-control-request-method'] ?? '').toUpperCase() : request.method;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  return !path.startsWith('/api/admin') && !path.startsWith('/api/auth');
}

export async function buildApp({ config, deps }: { config: ToolsApiConfig; deps: ToolsApiDeps }): Promise<App> {
  const { sql, db } = deps.database;
  const { app, rateLimit } = await createServiceApp({
    name: 'tools-api',
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    logStream: deps.logStream,
    render: toolsErrorRenderer,
    cors: {
      origins: config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Content-Type', 'Authorization', 'X-Session-ID', 'X-User-ID', 'X-Request-ID', 'Accept-Language'],
      isPublic: isPublicRequest,
    },
    rateLimit: { redisUrl: config.rateLimit.redisUrl, scale: config.rateLimit.scale, global: 'tools.general' },
    openapi: {
      title: 'Family Stories free tools API',
      version: VERSION,
      description: 'Free AI writing tools: generate, browse, respond, share, export, search (spec 002).',
      bearer: true,
    },
  });
  registerAuthDecorators(app);
  registerToolsCallerDecorator(app);
  registerEnvelopeTiming(app);
  const publicBaseUrl = toolsPublicBaseUrl(config);
  const providers = deps.providers ?? createProviders(config, { db, publicBaseUrl, onUsageError: (err) => app.log.warn({ err }, 'AI usage not recorded') });
  app.addHook('onClose', async () => providers.email.close());
  // The typesetting worker of the PDF exports (@story/pdf), if one started.
  app.addHook('onClose', async () => closeTypesetter());
  const tokens = createTokenSigner(config.secrets.jwtSecret);
  const sessions = createSessionLookup(sql, { cacheMs: config.database.sessionCacheMs });
  const authHook = requireAuth({ tokens, sessions });
  // app.flags: the shared feature-flag cache (libs/flags), cleared with every other service's by NOTIFY.
  const { cacheBus } = registerFlags(app, { sql });
  registerLlmCache(cacheBus, providers.llm);
  const featureDeps: ToolsFeatureDeps = { db, sql, providers, tokens, sessions, ipHashKey: ipHashKeyOf(config.secrets.jwtSecret), limitScale: config.rateLimit.scale, publicBaseUrl };

  const search = createSearchProvider(sql, config.search, { log: app.log.child({ component: 'search' }), retryMs: deps.searchRetryMs });
  // Database and storage are required (503); Redis and Meilisearch have fallbacks (degraded, 200).
  await registerHealth(app, {
    service: 'tools-api',
    version: VERSION,
    errorSchema: toolsErrorSchema,
    checks: {
      database: probeCheck(() => pingDatabase(sql)),
      storage: probeCheck(() => providers.storage.check()),
      ...(rateLimit.storeCheck ? { redis: { check: rateLimit.storeCheck, required: false } } : {}),
      ...(search.health ? { search: search.health } : {}),
    },
    info: () => ({ providers: { llm: describeProviders(providers).llm, storage: providers.storage.provider, search: config.search.provider } }),
  });

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    await authenticated.register(sessionRoutes(toolsErrorSchema), { prefix: '/api/auth' });
  });

  const generate = createGenerateService({ db, sql, llm: providers.llm, limitScale: config.rateLimit.scale });
  const browse = createBrowseService({ sql });
  await app.register(generateRoutes({ ...featureDeps, generate }));
  await app.register(browseRoutes({ ...featureDeps, browse }));
  await app.register(uploadsRoutes({ ...featureDeps, generate, browse, storage: providers.storage, maxPdfBytes: config.limits.maxPdfBytes, maxImageBytes: config.limits.maxImageBytes }));
  // Responses, share, analytics, export and search: every path is /api/{tool}/<static segment>... or
  // /api/search, so the router keeps them apart from GET /api/{tool}/{idOrShareCode} above.
  await app.register(responsesRoutes(featureDeps));
  await app.register(shareRoutes(featureDeps));
  await app.register(analyticsRoutes(featureDeps));
  await app.register(exportRoutes(featureDeps));
  // A service starts without its database (its /health says so): the outbox mode is set once it is ready.
  app.addHook('onReady', async () => {
    await search.start().catch((err: unknown) => app.log.warn({ err }, 'search: could not set the outbox mode at start'));
  });
  await app.register(searchRoutes({ ...featureDeps, engine: search.engine }));

  const workerLog = app.log.child({ component: 'tools-workers' });
  const jobs = createToolsJobRunner({ sql, generate, storage: providers.storage, log: workerLog, purgeIntervalMs: config.workers.purgeIntervalMs, extraJobs: search.jobs });
  registerToolsWorkers(app, jobs);
  const admin = createAdminService({
    sql,
    generate,
    queueBulkJob: async (bulkJobId, tx) => void (await jobs.enqueue(BULK_JOB_KIND, { bulkJobId }, { dedupeKey: `bulk:${bulkJobId}` }, tx)),
    onJobQueued: () => jobs.wake(),
  });
  await app.register(adminRoutes({ tokens, sessions, admin, sampleOptions: SAMPLE_INPUTS }));

  // Public HTML pages last: their /{tool}/... routes sit at the root.
  await app.register(pagesRoutes({ browse, publicBaseUrl }));

  return app;
}
