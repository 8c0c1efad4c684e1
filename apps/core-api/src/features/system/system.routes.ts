// GET /api/system/verify-database (spec 000 misc; CONTRACTS §9 needs a session; admin only, since it
// describes the deployment), authenticated scope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { Sql } from 'postgres';
import { verifyDatabase } from './verify-database';

const report = z.object({
  success: z.literal(true),
  ok: z.boolean(),
  checkedAt: z.string(),
  tables: z.object({
    expected: z.number().int(),
    present: z.number().int(),
    missing: z.array(z.string()),
    missingColumns: z.array(z.object({ table: z.string(), column: z.string() })),
  }),
  migrations: z.object({
    expected: z.number().int(),
    applied: z.number().int(),
    pending: z.array(z.string()),
    unknownApplied: z.number().int(),
    latestApplied: z.string().nullable(),
  }),
});

export const systemRoutes =
  ({ sql, migrationsFolder }: { sql: Sql; migrationsFolder?: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/system/verify-database',
      {
        preHandler: requireRole(['admin']),
        schema: {
          operationId: 'verifyDatabase',
          summary: 'Check the schema against the code: every table and column present, every migration applied (admin only)',
          description: 'Answers 200 with ok false and the missing tables, columns and pending migrations when the database lags the code.',
          tags: ['system'],
          security: [{ bearerAuth: [] }],
          response: { 200: report, ...errorResponses(coreErrorSchema, [401, 403, 429] as const) },
        },
      },
      async () => ({ success: true as const, ...(await verifyDatabase(sql, migrationsFolder)) }),
    );
  };
