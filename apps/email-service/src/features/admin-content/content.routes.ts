// Admin routes of the editorial records (spec 001 "Admin resources"; POST /api/content-blocks is the spec's
// own route, the others are named under /api/admin/...). For each kind of content-kinds.ts:
//   GET {path}  GET {path}/:id  POST {path}  PUT {path}/:id  DELETE {path}/:id  POST {path}/:id/status
// Reads need admin or support (the scope's hook); changes add requireAdminWrite.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { requireAdminWrite } from '../admin/admin-access';
import { actorOf, idParams, pageQuery, recordSchema, security } from '../admin/admin-views';
import type { RecordKinds } from './content-kinds';
import type { ContentService } from './content.service';
import { CONTENT_STATUSES } from './moderation';

const pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() });
const one = z.object({ success: z.boolean(), item: recordSchema });
const done = z.object({ success: z.boolean(), message: z.string() });

export const contentRoutes =
  ({ content, kinds, rateLimit, tag }: { content: ContentService; kinds: RecordKinds; rateLimit: RateLimitHandle; tag: string }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };
    const write = { config, onRequest: requireAdminWrite };
    for (const [kind, def] of Object.entries(kinds)) {
      const tags = [tag];
      const create = def.create;
      const listQuery = z.object({ ...pageQuery, search: z.string().trim().max(200).optional(), ...(def.moderated ? { status: z.enum(CONTENT_STATUSES).optional() } : {}) });

      app.get(def.path, {
        config,
        schema: {
          operationId: `list${def.op}s`, summary: `List ${kind} records, newest first`, tags, security, querystring: listQuery,
          response: { 200: z.object({ success: z.boolean(), items: z.array(recordSchema), pagination }), ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const) },
        },
      }, async (req) => ({ success: true, ...(await content.list(kind, req.query as { limit: number; offset: number; search?: string; status?: string })) }));

      app.get(`${def.path}/:id`, {
        config,
        schema: { operationId: `get${def.op}`, summary: `One ${kind} record`, tags, security, params: idParams, response: { 200: one, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) } },
      }, async (req) => ({ success: true, item: await content.get(kind, req.params.id) }));

      app.post(def.path, {
        ...write,
        schema: { operationId: `create${def.op}`, summary: `Create a ${kind} (status draft)`, tags, security, body: create, response: { 201: one, ...errorResponses(emailErrorSchema, [400, 401, 403, 409, 413, 429] as const) } },
      }, async (req, reply) => reply.status(201).send({ success: true, item: await content.create(kind, req.body as Record<string, unknown>, actorOf(req)) }));

      app.put(`${def.path}/:id`, {
        ...write,
        schema: {
          operationId: `update${def.op}`, summary: `Change fields of a ${kind} (its status moves through /status)`, tags, security, params: idParams, body: create.partial(),
          response: { 200: one, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 413, 429] as const) },
        },
      }, async (req) => ({ success: true, item: await content.update(kind, req.params.id, req.body as Record<string, unknown>, actorOf(req)) }));

      app.delete(`${def.path}/:id`, {
        ...write,
        schema: { operationId: `delete${def.op}`, summary: `Delete a ${kind}`, tags, security, params: idParams, response: { 200: done, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const) } },
      }, async (req) => {
        await content.remove(kind, req.params.id, actorOf(req));
        return { success: true, message: `${kind} deleted` };
      });

      if (!def.moderated) continue;
      app.post(`${def.path}/:id/status`, {
        ...write,
        schema: {
          operationId: `moderate${def.op}`, summary: `Moderation step: draft -> reviewed -> approved -> published (any step back to draft)`, tags, security, params: idParams,
          body: z.object({ status: z.enum(CONTENT_STATUSES) }),
          response: { 200: one, ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 429] as const) },
        },
      }, async (req) => ({ success: true, item: await content.setStatus(kind, req.params.id, req.body.status, actorOf(req)) }));
    }
  };

/**
 * GET /api/resources/:id/increment-download counts one download of a published resource. Spec 001 lists it
 * in the "Admin API routes" table and CONTRACTS §7 says every route of that table needs role admin or
 * support: it is registered in the admin read scope (a download is a read; the count follows it).
 */
export const resourceDownloadRoutes =
  ({ content, rateLimit }: { content: ContentService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/resources/:id/increment-download', {
      config: { rateLimit: rateLimit.route('email.admin') },
      schema: {
        operationId: 'incrementResourceDownload', summary: 'Count one download of a published resource (atomic) and say where it is (admin or support)', tags: ['resources'], security, params: idParams,
        response: {
          200: z.object({ success: z.boolean(), id: z.string(), download_count: z.number().int(), url: z.string().nullable(), storage_key: z.string().nullable() }),
          ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 429] as const),
        },
      },
    }, async (req) => ({ success: true, ...(await content.incrementDownload(req.params.id)) }));
  };

/** Public: GET /api/content-blocks/published/:key is the app's read of a published content block. */
export const publishedBlockRoutes =
  ({ content, rateLimit }: { content: ContentService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/content-blocks/published/:key', {
      config: { rateLimit: rateLimit.route('email.user') },
      schema: {
        operationId: 'getPublishedContentBlock', summary: 'A published content block by key (drafts and unpublished blocks are 404)', tags: ['content'],
        params: z.object({ key: z.string().max(100) }),
        response: {
          200: z.object({ success: z.boolean(), block: z.object({ key: z.string(), title: z.string().nullable(), body: z.string(), locale: z.string(), metadata: z.record(z.string(), z.unknown()), published_at: z.string().nullable() }) }),
          ...errorResponses(emailErrorSchema, [400, 404, 429] as const),
        },
      },
    }, async (req) => ({ success: true, block: await content.publishedBlock(req.params.key) }));
  };
