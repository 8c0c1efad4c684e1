// The admin application of spec 001 ("Admin application reference"), served by email-service at
// /dashboard, same origin as the admin API (CONTRACTS §12). Server-rendered pages over the admin services,
// called in-process with the same factories the admin API uses; a small script only enhances them.
//
// One encapsulated scope holds every route, with:
//   - its own CSP (scripts and styles from 'self' only, no inline anything) and Cache-Control: no-store;
//   - the sign-in check in onRequest (session.ts), before any body is read;
//   - the CSRF check of every POST in preHandler (csrf.ts), before any handler runs;
//   - form bodies (application/x-www-form-urlencoded) parsed here only: the JSON API is unchanged;
//   - an error handler that answers a page to browsers and the email-service JSON shape to other clients.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { createPasswordSignin, type SessionLookup, type TokenSigner } from '@story/auth';
import type { DbClient } from '@story/db';
import type { CacheBus, FlagStore } from '@story/flags';
import { AppError, normalizeError, type RateLimitHandle } from '@story/http';
import type { ManagedLanguageModel } from '@story/providers';
import type { EmailServiceConfig } from '../../config';
import { createAdminStatsRepository } from '../admin/admin-stats/admin-stats.repository';
import { createAdminStatsService } from '../admin/admin-stats/admin-stats.service';
import { createAdminUsersRepository } from '../admin/admin-users/admin-users.repository';
import { createAdminUsersService } from '../admin/admin-users/admin-users.service';
import type { ImpersonationService } from '../admin/admin-users/impersonation.service';
import { createAuditLog } from '../admin/audit-log.repository';
import { createFeatureFlagsRepository } from '../admin/feature-flags/feature-flags.repository';
import { createFeatureFlagsService } from '../admin/feature-flags/feature-flags.service';
import { createTemplatesRepository } from '../templates/templates.repository';
import { createTemplatesService } from '../templates/templates.service';
import { createAbTestsRepository } from '../ab-tests/ab-tests.repository';
import { createAbTestsService } from '../ab-tests/ab-tests.service';
import { createAnalyticsRepository } from '../analytics/analytics.repository';
import { createAnalyticsService } from '../analytics/analytics.service';
import { createContentRepository } from '../admin-content/content.repository';
import { createContentService } from '../admin-content/content.service';
import { contentKinds } from '../admin-content/content-kinds';
import { createCurationService } from '../admin-content/curation.service';
import { aiKinds } from '../admin-ai/ai-kinds';
import { createPromptsService } from '../admin-ai/prompts.service';
import { createConversationTestsService } from '../admin-ai/conversation-tests.service';
import { createAiDebugService } from '../admin-ai/ai-debug.service';
import { createSupportService } from '../admin-support/support.service';
import { createBillingService } from '../admin-billing/billing.service';
import { createWaitlistService } from '../waitlist/waitlist.service';
import { CSRF_FIELD, CSRF_HEADER, createCsrf } from './csrf';
import { createDashboardRepository } from './dashboard.repository';
import { createFlagPreview } from './flag-preview';
import { BASE } from './layout';
import { queryString } from './html';
import { loadOverview, OVERVIEW_TTL_MS } from './overview';
import { createDashboardSessions } from './session';
import { createSnapshotCache } from './snapshot-cache';
import { PAGE_RESPONSES, type DashboardContext } from './dashboard.context';
import { errorPage, signInPage, signInRoutes } from './pages/sign-in.page';
import { overviewPages } from './pages/overview.page';
import { usersPages } from './pages/users.page';
import { flagsPages } from './pages/flags.page';
import { templatesPages } from './pages/templates.page';
import { abTestsPages } from './pages/ab-tests.page';
import { analyticsPages } from './pages/analytics.page';
import { toolsPages } from './pages/tools.page';
import { supportPages } from './pages/support.page';
import { aiPages } from './pages/ai.page';
import { recordPages } from './pages/records.page';
import { businessPages } from './pages/business.page';
import { systemPages } from './pages/system.page';

/**
 * Scripts, styles, fonts, images, fetches and form posts from this origin only; no inline script or style
 * (so an injected <script> or style="" does nothing); frames only from this origin (the email preview).
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export interface DashboardDeps {
  database: DbClient;
  config: EmailServiceConfig;
  tokens: TokenSigner;
  sessions: SessionLookup;
  rateLimit: RateLimitHandle;
  flags: FlagStore;
  cacheBus: CacheBus;
  impersonation: ImpersonationService;
  llm: ManagedLanguageModel;
  migrationsFolder?: string;
}

/** The CSS and script, read once: beside the bundle (dist, built by tools/bundle.ts) or beside this file (sources, tests). */
function loadAssets(): { files: Map<string, { body: Buffer; type: string }>; css: string; js: string } {
  const dir = [path.join(__dirname, 'dashboard-assets'), path.join(__dirname, 'assets')].find((d) => existsSync(path.join(d, 'dashboard.css')));
  if (!dir) throw new Error('dashboard assets not found (dashboard.css)');
  const files = new Map<string, { body: Buffer; type: string }>();
  const add = (name: string, type: string) => {
    const body = readFileSync(path.join(dir, name));
    // Content-addressed names: a page always loads the assets it was rendered with, cached for a year.
    const hashed = name.replace(/\.(\w+)$/, `.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.$1`);
    files.set(hashed, { body, type });
    return `${BASE}/assets/${hashed}`;
  };
  return { files, css: add('dashboard.css', 'text/css; charset=utf-8'), js: add('dashboard.js', 'text/javascript; charset=utf-8') };
}

/** A browser asks for HTML; other clients (curl, fetch for JSON) get the email-service error shape. */
export const wantsHtml = (request: FastifyRequest): boolean => (request.headers.accept ?? '').includes('text/html');

export async function registerDashboard(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { database, config } = deps;
  const { db } = database;
  const audit = createAuditLog(db);
  const repo = createDashboardRepository(db, { migrationsFolder: deps.migrationsFolder });
  const templates = createTemplatesRepository(db);
  const analyticsRepo = createAnalyticsRepository(db);
  const contentRepo = createContentRepository(db);
  const stats = createAdminStatsService({ stats: createAdminStatsRepository(db) });
  const billing = createBillingService({ db });
  const assetSet = loadAssets();

  const ctx: DashboardContext = {
    services: {
      stats,
      users: createAdminUsersService({ users: createAdminUsersRepository(db), audit, roleLists: config }),
      impersonation: deps.impersonation,
      flags: createFeatureFlagsService({ flags: createFeatureFlagsRepository(db), audit, onChanged: () => deps.flags.clear() }),
      flagStore: deps.flags,
      templates: createTemplatesService({ templates, audit }),
      abTests: createAbTestsService({ abTests: createAbTestsRepository(db), templates, audit }),
      analytics: createAnalyticsService({ analytics: analyticsRepo }),
      analyticsRepo,
      content: createContentService({ repo: contentRepo, audit, kinds: contentKinds }),
      aiRecords: createContentService({ repo: contentRepo, audit, kinds: aiKinds }),
      curation: createCurationService({ db, audit }),
      prompts: createPromptsService({ db, audit }),
      conversationTests: createConversationTestsService({ db, llm: deps.llm }),
      aiDebug: createAiDebugService({ db, llm: deps.llm }),
      support: createSupportService({ db }),
      billing,
      waitlist: createWaitlistService({ db, appUrl: config.appUrl }),
      audit,
    },
    repo,
    sessions: createDashboardSessions({
      db,
      tokens: deps.tokens,
      sessions: deps.sessions,
      signin: createPasswordSignin({ db, roles: config, onLockout: () => app.log.warn('admin application: sign-in locked after repeated failures') }),
      secure: config.isProduction,
    }),
    csrf: createCsrf(config.secrets.jwtSecret),
    assets: { css: assetSet.css, js: assetSet.js },
    overview: createSnapshotCache(() => loadOverview(stats, repo), { ttlMs: OVERVIEW_TTL_MS, onError: (err) => app.log.warn({ err }, 'dashboard figures: refresh failed; the previous ones stay') }),
    billing: createSnapshotCache(() => billing.overview(), { ttlMs: OVERVIEW_TTL_MS, onError: (err) => app.log.warn({ err }, 'dashboard billing figures: refresh failed; the previous ones stay') }),
    flagPreview: createFlagPreview({ accountIds: () => repo.accountIds() }),
    cacheBus: deps.cacheBus,
    database,
    config,
    rateLimit: deps.rateLimit,
    migrationsFolder: deps.migrationsFolder,
  };
  // POST /api/clear-cache (and the system page) empties these too, on every replica.
  deps.cacheBus.register('dashboard', () => {
    ctx.overview.clear();
    ctx.billing.clear();
    ctx.flagPreview.clear();
  });

  await app.register(
    async (scope) => {
      await scope.register(formbody, { bodyLimit: 1024 * 1024 });
      scope.decorateRequest('dashboardUser', null);
      scope.decorateRequest('dashboardProblem', null);

      scope.addHook('onRequest', async (request, reply) => {
        reply.header('content-security-policy', DASHBOARD_CSP).header('cache-control', 'no-store');
        const config = request.routeOptions.config as { dashboardPublic?: boolean };
        if (config.dashboardPublic) return;
        const resolved = await ctx.sessions.resolve(request);
        if (typeof resolved === 'string') {
          request.dashboardProblem = resolved;
          if (resolved !== 'none') ctx.sessions.clearSession(reply);
          // Nothing behind the sign-in is read or changed without a session. A browser's GET goes to the
          // sign-in page (which says why, and returns here after); a post is refused where it was sent.
          if (!wantsHtml(request)) throw new AppError('unauthorized', 'Unauthorized');
          if (request.method === 'GET') return reply.redirect(`${BASE}/sign-in${queryString({ next: request.url, reason: resolved === 'none' ? undefined : resolved })}`, 303);
          return signInPage(ctx, request, reply, { status: resolved === 'no_role' ? 403 : 401, problem: resolved });
        }
        request.dashboardUser = resolved;
        // The rate limiter keys on request.auth: each operator has their own allowance.
        request.auth = { userId: resolved.userId, email: resolved.email, role: resolved.role, sessionId: resolved.sessionId };
      });

      // Every change is a POST with the token of its session (or, for sign-in, of its nonce cookie).
      scope.addHook('preHandler', async (request) => {
        if (request.method !== 'POST') return;
        const body = request.body as Record<string, unknown> | undefined;
        const header = request.headers[CSRF_HEADER];
        const token = (typeof body?.[CSRF_FIELD] === 'string' ? body[CSRF_FIELD] : undefined) ?? (typeof header === 'string' ? header : undefined);
        const binding = request.dashboardUser ? `session:${request.dashboardUser.sessionId}` : `signin:${ctx.sessions.signinNonce(request) ?? ''}`;
        const nonceMissing = !request.dashboardUser && !ctx.sessions.signinNonce(request);
        if (nonceMissing || !ctx.csrf.verify(binding, token)) {
          throw new AppError('forbidden', 'This form has expired or did not come from this site, so nothing was changed. Reload the page and try again.', { code: 'CSRF_TOKEN_INVALID' });
        }
      });

      scope.setErrorHandler(async (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
        // Other clients get the service's JSON shape from the root handler.
        if (!wantsHtml(request)) throw err;
        const normalized = normalizeError(err);
        if (normalized.status >= 500) request.log.error({ err }, 'dashboard request failed');
        else request.log.info({ status: normalized.status, code: normalized.code ?? normalized.kind }, normalized.message);
        if (err instanceof AppError && err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
        return errorPage(ctx, request, reply, normalized);
      });

      scope.setNotFoundHandler(async (request, reply) => {
        if (!wantsHtml(request)) throw new AppError('not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
        return errorPage(ctx, request, reply, { status: 404, kind: 'not_found', message: 'There is no such page in the admin application.' });
      });

      scope.get(
        '/assets/:file',
        {
          config: { rateLimit: false, dashboardPublic: true },
          schema: { operationId: 'dashboardAsset', summary: 'Admin application stylesheet and script', tags: ['dashboard'], hide: true, response: { 200: PAGE_RESPONSES[200], 404: PAGE_RESPONSES[404] } },
        },
        async (request, reply) => {
          const file = assetSet.files.get((request.params as { file: string }).file);
          if (!file) throw new AppError('not_found', 'No such asset');
          return reply.header('cache-control', 'public, max-age=31536000, immutable').type(file.type).send(file.body);
        },
      );

      await signInRoutes(scope, ctx);
      await overviewPages(scope, ctx);
      await usersPages(scope, ctx);
      await flagsPages(scope, ctx);
      await templatesPages(scope, ctx);
      await abTestsPages(scope, ctx);
      await analyticsPages(scope, ctx);
      await toolsPages(scope, ctx);
      await supportPages(scope, ctx);
      await aiPages(scope, ctx);
      await recordPages(scope, ctx);
      await businessPages(scope, ctx);
      await systemPages(scope, ctx);
    },
    { prefix: BASE },
  );
}
