// POST /api/webhooks/email/resend (spec 001 Events, CONTRACTS §6): delivery events, Svix-signed over the RAW
// body, so this plugin keeps JSON bodies as strings; the service verifies and applies them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, routeLimit } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import type { SvixHeaders, WebhooksService } from './webhooks.service';

export const webhookRoutes =
  ({ webhooks, config }: { webhooks: WebhooksService; config: Pick<EmailServiceConfig, 'rateLimit'> }): FastifyPluginAsyncZod =>
  async (app) => {
    // Signature verification needs the exact bytes: JSON stays a string in this plugin only.
    app.removeContentTypeParser(['application/json']);
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    app.post(
      '/api/webhooks/email/resend',
      {
        config: { rateLimit: routeLimit('email.webhook', config.rateLimit.scale) },
        schema: {
          operationId: 'receiveEmailDeliveryEvent',
          tags: ['webhooks'],
          summary: 'Delivery events from the email provider (Svix-signed)',
          response: {
            200: z.object({ success: z.boolean(), message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 413, 415, 429] as const),
          },
        },
      },
      async (request, reply) => {
        const header = (name: keyof SvixHeaders) => {
          const v = request.headers[name];
          return typeof v === 'string' ? v : '';
        };
        const raw = typeof request.body === 'string' ? request.body : '';
        const message = await webhooks.receive(raw, { 'svix-id': header('svix-id'), 'svix-timestamp': header('svix-timestamp'), 'svix-signature': header('svix-signature') });
        return reply.send({ success: true, message });
      },
    );
  };
