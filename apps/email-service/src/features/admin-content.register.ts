// Wiring of the admin API's AI management, content, support, billing, waitlist and migration routes
// (issue 15 points 5-7). `registerAdminContentPublic` holds the public ones (waitlist, download counter);
// `registerAdminContent` goes inside an authenticated scope and adds the admin/support read check itself.
import type { DbClient } from '@story/db';
import type { App, RateLimitHandle } from '@story/http';
import type { EmailServiceConfig } from '../config';
import { requireAdminRead } from './admin/admin-access';
import { createAuditLog } from './admin/audit-log.repository';
import { createContentRepository } from './admin-content/content.repository';
import { contentRoutes, resourceDownloadRoutes } from './admin-content/content.routes';
import { createContentService } from './admin-content/content.service';
import { curationRoutes } from './admin-content/curation.routes';
import { createCurationService } from './admin-content/curation.service';

export interface AdminContentDeps {
  database: DbClient;
  rateLimit: RateLimitHandle;
  config: EmailServiceConfig;
  migrationsFolder?: string;
}

export async function registerAdminContentPublic(app: App, { database, rateLimit }: AdminContentDeps): Promise<void> {
  const content = createContentService({ repo: createContentRepository(database.db), audit: createAuditLog(database.db) });
  await app.register(resourceDownloadRoutes({ content, rateLimit }));
}

export async function registerAdminContent(authenticated: App, { database, rateLimit }: AdminContentDeps): Promise<void> {
  const { db } = database;
  const audit = createAuditLog(db);
  await authenticated.register(async (admin) => {
    admin.addHook('onRequest', requireAdminRead);
    await admin.register(contentRoutes({ content: createContentService({ repo: createContentRepository(db), audit }), rateLimit }));
    await admin.register(curationRoutes({ curation: createCurationService({ db, audit }), rateLimit }));
  });
}
