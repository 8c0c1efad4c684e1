// POST /api/apply-migration (spec 001 admin routes): runs the pending migrations with libs/db's migrator;
// admin only, idempotent (a second call applies nothing), and audit-logged with what it applied.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { applyPendingMigrations, type DbClient } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { requireAdminWrite } from '../admin/admin-access';
import type { AuditLog } from '../admin/audit-log.repository';
import { actorOf, security } from '../admin/admin-views';

export const applyMigrationRoutes =
  ({ database, audit, migrationsFolder, rateLimit }: { database: DbClient; audit: AuditLog; migrationsFolder?: string; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post('/api/apply-migration', {
      config: { rateLimit: rateLimit.route('email.admin') },
      onRequest: requireAdminWrite,
      schema: {
        operationId: 'applyMigrations', summary: 'Apply pending database migrations (admin; a second call applies nothing)', tags: ['admin-system'], security,
        response: { 200: z.object({ success: z.boolean(), applied: z.array(z.string()), total: z.number().int(), message: z.string() }), ...errorResponses(emailErrorSchema, [401, 403, 429] as const) },
      },
    }, async (req) => {
      const report = await applyPendingMigrations(database.sql, migrationsFolder);
      // The migration commits on its own; the audit row records who ran it and what it changed.
      await audit.record({ ...actorOf(req), action: 'database.apply_migration', targetType: 'database', before: null, after: report });
      const message = report.applied.length ? `Applied ${report.applied.length} migration(s)` : 'The database is up to date';
      return { success: true, ...report, message };
    });
  };
