// core-api: shared plumbing first, then each feature registered explicitly with its prefix.
// Public routes sit at the root scope; authenticated ones in a scope that adds the auth hook.
import { createAuthService } from './features/auth/auth.service';
import { acceptKeptInvitations } from './features/invitation-signup/accept-on-verification';
import { authRoutes } from './features/auth/auth.routes';
import { createIdentities } from './features/auth/identities';
import { identitiesRoutes } from './features/auth/identities.routes';
import { registerOAuth } from './features/oauth/oauth.register';
import { createCampaignsService } from './features/campaigns/campaigns.service';
import { campaignsRoutes } from './features/campaigns/campaigns.routes';
import { createAccessPolicy } from './features/access/access.policy';
import type { CoreFeatureDeps } from './features/feature-deps';
import { registerAiHelpers } from './features/ai-helpers/ai-helpers.register';
import { registerConversationsAndSpeech } from './features/conversations.register';
import { registerFamilyAndCampaigns } from './features/family.register';
import { registerMemories } from './features/memories.register';
import { registerRecordingsToStories } from './features/recordings.register';
import { registerStoriesAndBooks } from './features/stories-books.register';
import { registerGiftsAndAchievements } from './features/account-extras.register';
import { registerSettingsAndAccount } from './features/settings.register';
import { registerImportsAndMedia } from './features/media-imports.register';
import type { UrlFetchOptions } from './features/imports/imports.service';
import { registerPrivacy } from './features/privacy.register';
import { createSessionLookup, createTokenSigner, optionalAuth, refuseImpersonationBearer, registerAuthDecorators, requireAuth } from '@story/auth';
import { configuredOAuthProviders, VERSION } from '@story/config';
import { registerFlags } from '@story/flags';
import { flagsRoutes } from './features/flags/flags.routes';
import { pingDatabase, type DbClient } from '@story/db';
import { createJobRunner, type JobRunner } from '@story/jobs';
import { closeSharedProcessSpawner, createProviders, describeProviders, registerLlmCache, type Providers } from '@story/providers';
import { closeTypesetter } from '@story/pdf';
import { coreErrorRenderer, coreErrorSchema, createServiceApp, maskEmail, probeCheck, registerHealth, type App, type ServiceOptions } from '@story/http';
import type { CoreApiConfig } from './config';

declare module 'fastify' {
  interface FastifyInstance {
    /** The `core` queue's job runner (book exports); main.ts starts it, tests drain it. */
    coreJobs: JobRunner;
  }
}

export interface CoreApiDeps {
  database: DbClient;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: ServiceOptions['logStream'];
  /** Storage, speech, TTS and LLM adapters; built from config when not given (tests inject fakes). */
  providers?: Providers;
  /** URL imports: tests inject a resolver and exact private address:port allowances; never set in production. */
  urlFetch?: UrlFetchOptions;
}

export async function buildApp({ config, deps }: { config: CoreApiConfig; deps: CoreApiDeps }): Promise<App> {
  const { db, sql } = deps.database;
  const { app, rateLimit } = await createServiceApp({
    name: 'core-api',
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    logStream: deps.logStream,
    render: coreErrorRenderer,
    cors: { origins: config.corsOrigins },
    rateLimit: {
      redisUrl: config.rateLimit.redisUrl,
      scale: config.rateLimit.scale,
      global: 'core.general',
    },
    openapi: {
      title: 'Family Stories core API',
      version: VERSION,
      description: 'Campaigns, recordings, stories, books, family and memories (spec 000).',
      bearer: true,
    },
  });
  registerAuthDecorators(app);
  const providers =
    deps.providers ??
    createProviders(config, { db, publicBaseUrl: config.publicBaseUrl ?? `http://${config.host}:${config.port}`, onUsageError: (err) => app.log.warn({ err }, 'AI usage not recorded') });
  app.addHook('onClose', async () => providers.email.close());
  // The local recogniser's inference threads (jobs stop in preClose, before this runs).
  app.addHook('onClose', async () => providers.speech.close?.());
  // The helper that spawns ffmpeg/ffprobe for recording jobs (jobs stop in preClose, before this runs).
  app.addHook('onClose', async () => closeSharedProcessSpawner());
  // The typesetting worker of the book and data-export PDFs (@story/pdf), if one started.
  app.addHook('onClose', async () => closeTypesetter());
  const tokens = createTokenSigner(config.secrets.jwtSecret);
  const sessions = createSessionLookup(sql, { cacheMs: config.database.sessionCacheMs });
  const authHook = requireAuth({ tokens, sessions });
  // Routes that sign in refuse a live impersonation token sent with them (CONTRACTS §7).
  const noImpersonation = (what: string) => refuseImpersonationBearer({ tokens, sessions }, what);
  const { flags, cacheBus } = registerFlags(app, { sql });
  registerLlmCache(cacheBus, providers.llm);

  await registerHealth(app, {
    service: 'core-api',
    version: VERSION,
    errorSchema: coreErrorSchema,
    // Database and storage are required (503); Redis has a fallback (degraded, 200: limits in-process).
    checks: {
      database: probeCheck(() => pingDatabase(sql)),
      storage: probeCheck(() => providers.storage.check()),
      ...(rateLimit.storeCheck ? { redis: { check: rateLimit.storeCheck, required: false } } : {}),
    },
    info: () => ({ providers: describeProviders(providers), oauth: configuredOAuthProviders(config.oauth) }),
  });

  const auth = createAuthService({
    db,
    tokens,
    roles: { adminEmails: config.adminEmails, supportEmails: config.supportEmails },
    appUrl: config.appUrl,
    sessionDays: config.limits.sessionDays,
    // The address masked (r***@example.test): enough to spot an attack on one account, no personal data.
    onLockout: (email) => app.log.warn({ email: maskEmail(email) }, 'sign-in locked after repeated failures'),
    limitScale: config.rateLimit.scale,
    onVerifiedBySession: acceptKeptInvitations(db),
  });
  await app.register(
    authRoutes({ auth, rateLimit, requireAuth: authHook, optionalAuth: optionalAuth({ tokens, sessions }), refuseImpersonationBearer: noImpersonation }),
    { prefix: '/api/auth' },
  );
  await app.register(identitiesRoutes({ identities: createIdentities({ db }), requireAuth: authHook }), { prefix: '/api/auth/identities' });
  await registerOAuth(app, { config, db, rateLimit, openSession: auth.openSession, refuseImpersonationBearer: noImpersonation });

  await app.register(async (authenticated) => {
    authenticated.addHook('onRequest', authHook);
    await authenticated.register(campaignsRoutes({ campaigns: createCampaignsService({ db, sql }) }), { prefix: '/api/campaigns' });
    await authenticated.register(flagsRoutes({ flags }), { prefix: '/api/flags' });
  });

  const jobs = createJobRunner({ sql, queue: 'core', log: app.log.child({ component: 'core-jobs' }) });
  app.decorate('coreJobs', jobs);
  // preClose runs before every onClose hook: the job in flight ends while storage and database are open.
  app.addHook('preClose', async () => jobs.stop());

  const features: CoreFeatureDeps = { db, sql, providers, config, rateLimit, access: createAccessPolicy({ sql }), authHook, jobs };
  await registerRecordingsToStories(app, features);
  await registerConversationsAndSpeech(app, features);
  await registerStoriesAndBooks(app, features);
  await registerFamilyAndCampaigns(app, features);
  await registerGiftsAndAchievements(app, features);
  await registerSettingsAndAccount(app, features, { auth });
  await registerAiHelpers(app, features);
  await registerImportsAndMedia(app, features, { urlFetch: deps.urlFetch });
  await registerPrivacy(app, features);
  await registerMemories(app, features);

  return app;
}
