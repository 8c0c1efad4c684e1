// Wiring of the admin API's AI management, content, support, billing, waitlist and migration routes
// (spec 001 Admin resources and Admin application reference). `registerAdminContentPublic` holds the public
// ones (waitlist, download counter); `registerAdminContent` goes inside an authenticated scope and adds the
// admin/support read check itself.
import type { DbClient } from '@story/db';
import type { CacheBus } from '@story/flags';
import { AI_CACHE_SCOPE, createDbUsageRecorder, createManagedLlm, registerLlmCache, type ManagedLanguageModel } from '@story/providers';
import type { App, RateLimitHandle } from '@story/http';
import type { EmailServiceConfig } from '../config';
import { requireAdminRead } from './admin/admin-access';
import { createAuditLog } from './admin/audit-log.repository';
import { createContentRepository } from './admin-content/content.repository';
import { contentKinds } from './admin-content/content-kinds';
import { contentRoutes, publishedBlockRoutes, resourceDownloadRoutes } from './admin-content/content.routes';
import { createContentService } from './admin-content/content.service';
import { aiKinds } from './admin-ai/ai-kinds';
import { createAiDebugService } from './admin-ai/ai-debug.service';
import { aiTestingRoutes } from './admin-ai/ai-testing.routes';
import { createConversationTestsService } from './admin-ai/conversation-tests.service';
import { promptsRoutes } from './admin-ai/prompts.routes';
import { createPromptsService } from './admin-ai/prompts.service';
import { billingRoutes } from './admin-billing/billing.routes';
import { createBillingService } from './admin-billing/billing.service';
import { supportRoutes } from './admin-support/support.routes';
import { createSupportService } from './admin-support/support.service';
import { applyMigrationRoutes } from './admin-system/apply-migration.routes';
import { waitlistAdminRoutes, waitlistPublicRoutes } from './waitlist/waitlist.routes';
import { createWaitlistService } from './waitlist/waitlist.service';
import { curationRoutes } from './admin-content/curation.routes';
import { createCurationService } from './admin-content/curation.service';

export interface AdminContentDeps {
  database: DbClient;
  rateLimit: RateLimitHandle;
  config: EmailServiceConfig;
  migrationsFolder?: string;
  /** The LLM the conversation tester and provider test call (default: built from config, like core-api's). */
  llm?: ManagedLanguageModel;
  /** Clears caches in every service: a prompt or provider change reaches core-api's and tools-api's LLM at once. */
  cacheBus?: Pick<CacheBus, 'register' | 'publish'>;
}

export async function registerAdminContentPublic(app: App, { database, rateLimit, config }: AdminContentDeps): Promise<void> {
  const content = createContentService({ repo: createContentRepository(database.db), audit: createAuditLog(database.db), kinds: contentKinds });
  await app.register(publishedBlockRoutes({ content, rateLimit }));
  await app.register(waitlistPublicRoutes({ waitlist: createWaitlistService({ db: database.db, appUrl: config.appUrl }), rateLimit }));
}

export async function registerAdminContent(authenticated: App, { database, rateLimit, config, ...deps }: AdminContentDeps): Promise<{ llm: ManagedLanguageModel }> {
  const { db } = database;
  const audit = createAuditLog(db);
  const llm = deps.llm ?? createManagedLlm(config, { db, usage: createDbUsageRecorder(db), timeoutMs: config.providers.PROVIDER_TIMEOUT_MS });
  const records = createContentRepository(db);
  const { cacheBus } = deps;
  if (cacheBus) registerLlmCache(cacheBus, llm);
  // Every service's LLM caches prompts and provider choices for 30 s: a change clears them everywhere.
  const afterAiChange = () => {
    if (!cacheBus) return llm.clearCache();
    void cacheBus.publish(AI_CACHE_SCOPE).catch(() => llm.clearCache());
  };
  await authenticated.register(async (admin) => {
    admin.addHook('onRequest', requireAdminRead);
    const content = createContentService({ repo: records, audit, kinds: contentKinds });
    await admin.register(contentRoutes({ content, kinds: contentKinds, rateLimit, tag: 'admin-content' }));
    await admin.register(resourceDownloadRoutes({ content, rateLimit }));
    await admin.register(curationRoutes({ curation: createCurationService({ db, audit }), rateLimit }));
    await admin.register(promptsRoutes({ prompts: createPromptsService({ db, audit }), rateLimit }));
    await admin.register(contentRoutes({ content: createContentService({ repo: records, audit, kinds: aiKinds, afterChange: afterAiChange }), kinds: aiKinds, rateLimit, tag: 'admin-ai' }));
    await admin.register(supportRoutes({ support: createSupportService({ db }), rateLimit }));
    await admin.register(billingRoutes({ billing: createBillingService({ db }), rateLimit }));
    await admin.register(waitlistAdminRoutes({ waitlist: createWaitlistService({ db, appUrl: config.appUrl }), rateLimit }));
    await admin.register(applyMigrationRoutes({ database, audit, migrationsFolder: deps.migrationsFolder, rateLimit }));
    await admin.register(aiTestingRoutes({ tests: createConversationTestsService({ db, llm }), debug: createAiDebugService({ db, llm }), rateLimit }));
  });
  // The admin application (features/dashboard) reads the conversation tests through the same model.
  return { llm };
}
