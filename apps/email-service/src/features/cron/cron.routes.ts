// GET and POST /api/cron/process-emails (spec 001, CONTRACTS §6): a scheduler's trigger for one queue batch.
// Public (no user session) but guarded by `Authorization: Bearer <CRON_SECRET>`. The bodies are exactly the
// spec's ({error} without a code), so they are sent directly rather than thrown through the error renderer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses } from '@story/http';
import type { CronService } from './cron.service';

const PATH = '/api/cron/process-emails';
// 401 and 500 are the spec's bare {error}; anything the error renderer answers (429) carries a code too.
const cronErrorSchema = z.looseObject({ error: z.string() });
const cronResponse = z.object({ success: z.boolean(), message: z.string() });

/** One route per method, so each operation of the OpenAPI document has its own operationId. */
const OPERATIONS = [
  { method: 'GET', operationId: 'processEmailQueueViaGet' },
  { method: 'POST', operationId: 'processEmailQueue' },
] as const;

export const cronRoutes =
  ({ cron }: { cron: CronService }): FastifyPluginAsyncZod =>
  async (app) => {
    for (const { method, operationId } of OPERATIONS) {
      app.route({
        method,
        url: PATH,
        schema: {
          operationId,
          tags: ['cron'],
          summary: 'Process one batch of the email send queue',
          response: { 200: cronResponse, 401: cronErrorSchema, 500: cronErrorSchema, ...errorResponses(emailErrorSchema, [429] as const) },
        },
        handler: async (request, reply) => {
          if (!cron.isAuthorized(request.headers.authorization)) return reply.code(401).send({ error: 'Unauthorized' });
          try {
            const r = await cron.runBatch();
            return reply.send({ success: true, message: `Processed ${r.claimed} emails: ${r.sent} sent, ${r.failed} failed` });
          } catch (err) {
            request.log.error({ err: err instanceof Error ? err.message : String(err) }, 'cron queue processing failed');
            return reply.code(500).send({ error: 'Processing failed' });
          }
        },
      });
    }
  };
