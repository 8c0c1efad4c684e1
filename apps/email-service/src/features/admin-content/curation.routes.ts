// Admin routes of the story-prompt collections' contents and the book-blurb queue (dashboard
// tools/story-prompts/collections, tools/book-blurb/queue and add):
//   GET  /api/admin/story-prompt-collections/:id/prompts   PUT the same path {prompt_ids}
//   GET  /api/admin/blurb-queue   POST /api/admin/blurb-queue   POST /api/admin/blurb-queue/:id/approve|reject
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BLURB_QUEUE_STATUSES } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { requireAdminWrite } from '../admin/admin-access';
import { actorOf, idParams, pageQuery, recordSchema, security } from '../admin/admin-views';
import type { CurationService } from './curation.service';

const tags = ['admin-content'];
const collectionAnswer = z.object({ success: z.boolean(), collection: recordSchema, prompts: z.array(recordSchema) });
const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });
const reviewAnswer = z.object({ success: z.boolean(), item: recordSchema, sample: recordSchema.nullable() });

export const curationRoutes =
  ({ curation, rateLimit }: { curation: CurationService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };
    const write = { config, onRequest: requireAdminWrite };

    app.get('/api/admin/story-prompt-collections/:id/prompts', {
      config,
      schema: { operationId: 'getStoryPromptCollectionPrompts', summary: 'A collection with its prompts in order', tags, security, params: idParams, response: { 200: collectionAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) } },
    }, async (req) => ({ success: true, ...(await curation.getCollection(req.params.id)) }));

    app.put('/api/admin/story-prompt-collections/:id/prompts', {
      ...write,
      schema: {
        operationId: 'setStoryPromptCollectionPrompts', summary: 'Replace the prompts of a collection (order kept)', tags, security, params: idParams,
        body: z.object({ prompt_ids: z.array(z.uuid()).max(500) }),
        response: { 200: collectionAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await curation.setCollectionPrompts(req.params.id, req.body.prompt_ids, actorOf(req))) }));

    app.get('/api/admin/blurb-queue', {
      config,
      schema: {
        operationId: 'listBlurbQueue', summary: 'Blurbs waiting for review, oldest first', tags, security,
        querystring: z.object({ ...pageQuery, status: z.enum(BLURB_QUEUE_STATUSES).optional() }),
        response: { 200: z.object({ success: z.boolean(), items: z.array(recordSchema), pagination }), ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await curation.listQueue(req.query)) }));

    app.post('/api/admin/blurb-queue', {
      ...write,
      schema: {
        operationId: 'submitBlurb', summary: 'Add a blurb to the review queue', tags, security,
        body: z.object({
          book_title: z.string().trim().min(1).max(300),
          author: z.string().trim().max(200).nullish(),
          genre: z.string().trim().max(100).nullish(),
          blurb: z.string().trim().min(1).max(5000),
          source_content_id: z.uuid().nullish(),
        }),
        response: { 201: z.object({ success: z.boolean(), item: recordSchema }), ...errorResponses(emailErrorSchema, [400, 401, 403, 413, 429] as const) },
      },
    }, async (req, reply) => reply.status(201).send({ success: true, item: await curation.submitBlurb(req.body, actorOf(req)) }));

    for (const decision of ['approve', 'reject'] as const) {
      app.post(`/api/admin/blurb-queue/:id/${decision}`, {
        ...write,
        schema: {
          operationId: `${decision}Blurb`, summary: decision === 'approve' ? 'Approve a queued blurb: it becomes a blurb sample' : 'Reject a queued blurb', tags, security, params: idParams,
          body: z.object({ note: z.string().trim().max(2000).nullish() }).optional(),
          response: { 200: reviewAnswer, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 429] as const) },
        },
      }, async (req) => ({ success: true, ...(await curation.reviewBlurb(req.params.id, decision, req.body?.note, actorOf(req))) }));
    }
  };
