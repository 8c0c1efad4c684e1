// GET and POST /api/cron/process-emails (spec 001, CONTRACTS §6): a scheduler's trigger for one queue batch.
// Public (no user session) but guarded by `Authorization: Bearer <CRON_SECRET>`. The bodies are exactly the
// spec's ({error} without a code), so they are sent directly rather than thrown through the error renderer.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { App } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import type { EmailQueueWorker } from '../../workers';

/** Constant-time comparison of the presented Authorization header against `Bearer <secret>`. */
export function cronAuthorized(header: string | undefined, secret: string | undefined): boolean {
  if (!secret || !header) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(header), digest(`Bearer ${secret}`));
}

export function cronRoutes({ config, worker }: { config: EmailServiceConfig; worker: EmailQueueWorker }) {
  return async function cronPlugin(app: App) {
    app.route({
      method: ['GET', 'POST'],
      url: '/api/cron/process-emails',
      schema: { tags: ['cron'], summary: 'Process one batch of the email send queue', hide: false },
      handler: async (request, reply) => {
        if (!cronAuthorized(request.headers.authorization, config.secrets.cronSecret)) {
          return reply.code(401).send({ error: 'Unauthorized' });
        }
        try {
          const r = await worker.processBatch(config.queue.batchSize);
          return reply.send({ success: true, message: `Processed ${r.claimed} emails: ${r.sent} sent, ${r.failed} failed` });
        } catch (err) {
          request.log.error({ err: err instanceof Error ? err.message : String(err) }, 'cron queue processing failed');
          return reply.code(500).send({ error: 'Processing failed' });
        }
      },
    });
  };
}
