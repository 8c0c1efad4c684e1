// POST /api/webhooks/email/resend (spec 001 Events, CONTRACTS §6): delivery events, Svix-signed over the RAW
// body, so this plugin keeps JSON bodies as strings; the service verifies and applies them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, routeLimit, routeMedia } from '@story/http';
import type { EmailServiceConfig } from '../../config';
import { eventSchema, type SvixHeaders, type WebhooksService } from './webhooks.service';

/** The Svix headers, bounded (svix-id reaches a unique index); their absence is the service's 401, not a 400. */
const svixHeaders = z.looseObject({
  'svix-id': z.string().max(200).optional().describe('The message id; each is applied once'),
  'svix-timestamp': z.string().max(20).optional().describe('Seconds since the epoch; at most 5 minutes old'),
  'svix-signature': z.string().max(2000).optional().describe('v1,<base64 HMAC-SHA256> (space-separated when several)'),
});

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
          description:
            'The JSON body is verified with the Svix scheme over its exact bytes (headers svix-id, svix-timestamp, svix-signature; EMAIL_WEBHOOK_SECRET; 5 minutes tolerance): a missing, bad or stale signature is 401 and changes nothing, and a replayed svix-id changes nothing twice (CONTRACTS §6).',
          headers: svixHeaders,
          ...routeMedia({
            requestBody: {
              required: true,
              description: 'One delivery event, signed',
              content: { 'application/json': { schema: z.toJSONSchema(eventSchema, { target: 'openapi-3.0', io: 'input' }) as Record<string, unknown> } },
            },
          }),
          response: {
            200: z.object({ success: z.boolean(), message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 413, 415, 429, 500, 503] as const),
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
