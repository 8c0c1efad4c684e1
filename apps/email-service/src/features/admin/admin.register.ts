// The admin API scope of email-service (spec 001 "Admin application reference", CONTRACTS §7): every
// route in it needs role admin or support (requireAdminRead, in onRequest, so a 403 comes before body
// validation) and is limited to 100 requests a minute per caller; changing routes add requireAdminWrite.
// Admin features register their plugins here with their full paths (/api/admin/..., /api/feature-flags, ...).
import type { FastifyInstance } from 'fastify';
import type { TokenSigner } from '@story/auth';
import type { Database } from '@story/db';
import type { CacheBus, FlagStore } from '@story/flags';
import type { RateLimitHandle } from '@story/http';
import { requireAdminRead } from './admin-access';
import { createAuditLog } from './audit-log.repository';
import { createAdminStatsRepository } from './admin-stats/admin-stats.repository';
import { createAdminStatsService } from './admin-stats/admin-stats.service';
import { adminStatsRoutes } from './admin-stats/admin-stats.routes';
import { createAdminUsersRepository } from './admin-users/admin-users.repository';
import { createAdminUsersService } from './admin-users/admin-users.service';
import { createImpersonationRepository } from './admin-users/impersonation.repository';
import { createImpersonationService, type ImpersonationService } from './admin-users/impersonation.service';
import { adminUsersRoutes } from './admin-users/admin-users.routes';
import { createFeatureFlagsRepository } from './feature-flags/feature-flags.repository';
import { createFeatureFlagsService } from './feature-flags/feature-flags.service';
import { featureFlagsRoutes } from './feature-flags/feature-flags.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Impersonation records; main.ts's workers sweep expired and signed-out ones on an interval. */
    adminImpersonations: ImpersonationService;
  }
}

export interface AdminApiDeps {
  db: Database;
  tokens: Pick<TokenSigner, 'sign'>;
  rateLimit: RateLimitHandle;
  flags: FlagStore;
  cacheBus: CacheBus;
  roleLists: { adminEmails: readonly string[]; supportEmails: readonly string[] };
}

/** Build on the root app (it decorates `adminImpersonations`), then call `register` inside the authenticated scope. */
export function createAdminApi(app: FastifyInstance, deps: AdminApiDeps) {
  const { db, rateLimit, flags, cacheBus } = deps;
  const audit = createAuditLog(db);
  const limited = { rateLimit, limit: 'email.admin' as const };
  const usersRepo = createAdminUsersRepository(db);
  const impersonation = createImpersonationService({ users: usersRepo, impersonations: createImpersonationRepository(db), audit, tokens: deps.tokens });
  app.decorate('adminImpersonations', impersonation);
  app.addHook('preClose', async () => impersonation.stopSweep());

  const register = (authenticated: FastifyInstance) =>
    authenticated.register(async (admin) => {
    admin.addHook('onRequest', requireAdminRead);
    await admin.register(adminStatsRoutes({ stats: createAdminStatsService({ stats: createAdminStatsRepository(db) }), ...limited }));
    await admin.register(
      adminUsersRoutes({
        users: createAdminUsersService({ users: usersRepo, audit, roleLists: deps.roleLists }),
        impersonation,
        evaluateFlags: (userId) => flags.evaluateAll(userId),
        ...limited,
      }),
    );
    const flagsService = createFeatureFlagsService({ flags: createFeatureFlagsRepository(db), audit, onChanged: () => flags.clear() });
    await admin.register(featureFlagsRoutes({ flags: flagsService, cacheBus, audit, ...limited }));
    });
  return { register, impersonation };
}
