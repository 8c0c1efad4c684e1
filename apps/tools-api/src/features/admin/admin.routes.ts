// /api/admin/* (role admin; 403 otherwise, checked in onRequest before any body validation). The framework
// admin pattern per tool under /api/admin/{tool}/..., plus /api/admin/flipbooks and /api/admin/tools/samples.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, requireAuth, requireRole, type AuthDeps } from '@story/auth';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { envelopeSchema, okEnvelope, paginationMeta, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import { browseItemSchema, parseBrowseQuery } from '../browse/browse.routes';
import type { AdminService } from './admin.service';

const security = [{ bearerAuth: [] }];
const tags = ['admin'];
const toolParams = z.object({ tool: toolPathParam });
const idParams = z.object({ tool: toolPathParam, id: z.uuid() });

const adminItem = browseItemSchema.extend({ isReviewed: z.boolean(), sessionId: z.string(), userId: z.string().nullable(), expiresAt: z.string().nullable(), aiModel: z.string().nullable(), exportCount: z.number().int() });
const jobView = z.object({
  id: z.uuid(),
  tool: z.string(),
  status: z.string(),
  requestedCount: z.number().int(),
  completedCount: z.number().int(),
  failedCount: z.number().int(),
  progress: z.number().int(),
  collectionId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
const collectionView = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string().nullable(),
  slug: z.string(),
  isFeatured: z.boolean(),
  isPublished: z.boolean(),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
  keywords: z.array(z.string()),
  itemCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const optionsObject = z.record(z.string(), z.unknown());
const bulkBody = z.object({
  count: z.number().int().min(1).max(500),
  options: optionsObject.optional(),
  /** Per-item option overrides, applied in turn (item i uses variations[i % n]). */
  variations: z.array(optionsObject).max(50).optional(),
  isPublic: z.boolean().optional(),
  isFeatured: z.boolean().optional(),
});
const adminQuery = z.object({
  page: z.string().optional(),
  limit: z.string().optional(),
  sort: z.string().optional(),
  search: z.string().max(200).optional(),
  reviewed: z.enum(['true', 'false']).optional(),
  featured: z.enum(['true', 'false']).optional(),
  public: z.enum(['true', 'false']).optional(),
  includeExpired: z.enum(['true', 'false']).optional(),
});
const bool = (v: string | undefined) => (v === undefined ? undefined : v === 'true');

export const adminRoutes =
  (deps: AuthDeps & { admin: AdminService; sampleOptions: Partial<Record<ToolRoute, Record<string, unknown>>> }): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', requireAuth(deps));
    app.addHook('onRequest', requireRole(['admin'], 'Admin access required', 'ACCESS_DENIED'));
    // An unknown tool is 404 before validation of anything else.
    app.addHook('preValidation', async (req) => {
      const tool = (req.params as { tool?: string } | undefined)?.tool;
      if (tool !== undefined) parseTool(tool);
    });
    const errors = toolsErrors([400, 401, 403, 404, 409, 429] as const);
    const { admin } = deps;

    app.get(
      '/api/admin/:tool/browse',
      { schema: { operationId: 'adminBrowseTool', summary: 'All content of a tool, private and unreviewed included', tags, security, params: toolParams, querystring: adminQuery, response: { 200: envelopeSchema(z.array(adminItem)), ...errors } } },
      async (req) => {
        const tool = parseTool(req.params.tool);
        const base = parseBrowseQuery({ page: req.query.page, limit: req.query.limit, sort: req.query.sort });
        const { items, total } = await admin.browse(tool, {
          ...base,
          search: req.query.search?.trim() || undefined,
          reviewed: bool(req.query.reviewed),
          featured: bool(req.query.featured),
          isPublic: bool(req.query.public),
          includeExpired: bool(req.query.includeExpired),
        });
        return okEnvelope(req, items, { pagination: paginationMeta(base.page, base.limit, total) });
      },
    );

    app.post(
      '/api/admin/:tool/bulk-generate',
      { schema: { operationId: 'adminBulkGenerate', summary: 'Queue a background job generating many items (progress at bulk-jobs/{jobId})', tags, security, params: toolParams, body: bulkBody, response: { 202: envelopeSchema(jobView), ...errors } } },
      async (req, reply) => reply.status(202).send(okEnvelope(req, await admin.queueJob(parseTool(req.params.tool), callerOf(req).userId, req.body))),
    );

    app.get(
      '/api/admin/:tool/bulk-jobs',
      { schema: { operationId: 'adminListBulkJobs', summary: 'Recent bulk jobs of a tool', tags, security, params: toolParams, response: { 200: envelopeSchema(z.array(jobView)), ...errors } } },
      async (req) => okEnvelope(req, await admin.listJobs(parseTool(req.params.tool))),
    );

    app.get(
      '/api/admin/:tool/bulk-jobs/:jobId',
      { schema: { operationId: 'adminGetBulkJob', summary: 'Progress of a bulk job', tags, security, params: z.object({ tool: toolPathParam, jobId: z.uuid() }), response: { 200: envelopeSchema(jobView), ...errors } } },
      async (req) => okEnvelope(req, await admin.job(parseTool(req.params.tool), req.params.jobId)),
    );

    app.post(
      '/api/admin/:tool/:id/review',
      {
        schema: {
          operationId: 'adminReviewContent',
          summary: 'Mark content reviewed; approve (optionally publish) or reject (unpublish)',
          tags,
          security,
          params: idParams,
          body: z.object({ approved: z.boolean().default(true), isPublic: z.boolean().optional(), notes: z.string().max(2000).optional() }).default({ approved: true }),
          response: { 200: envelopeSchema(adminItem), ...errors },
        },
      },
      async (req) => okEnvelope(req, await admin.review(parseTool(req.params.tool), req.params.id, req.body, callerOf(req).userId)),
    );

    app.post(
      '/api/admin/:tool/:id/feature',
      {
        schema: {
          operationId: 'adminFeatureContent',
          summary: 'Feature (publishes it and removes its expiry) or unfeature content',
          tags,
          security,
          params: idParams,
          body: z.object({ featured: z.boolean().default(true) }).default({ featured: true }),
          response: { 200: envelopeSchema(adminItem), ...errors },
        },
      },
      async (req) => okEnvelope(req, await admin.feature(parseTool(req.params.tool), req.params.id, req.body.featured)),
    );

    app.post(
      '/api/admin/:tool/:id/set-expiration',
      {
        schema: {
          operationId: 'adminSetContentExpiration',
          summary: 'Set when content expires (null: never); expired content is hidden and then purged',
          tags,
          security,
          params: idParams,
          body: z.object({ expiresAt: z.iso.datetime({ offset: true }).nullable() }),
          response: { 200: envelopeSchema(adminItem), ...errors },
        },
      },
      async (req) => okEnvelope(req, await admin.setExpiration(parseTool(req.params.tool), req.params.id, req.body.expiresAt === null ? null : new Date(req.body.expiresAt))),
    );

    app.get(
      '/api/admin/:tool/analytics',
      {
        schema: {
          operationId: 'adminToolAnalytics',
          summary: 'Content, events, generation trend, AI usage and cost, rate-limit hits and responses of a tool',
          tags,
          security,
          params: toolParams,
          querystring: z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }),
          response: { 200: envelopeSchema(z.looseObject({ tool: z.string(), periodDays: z.number() })), ...errors },
        },
      },
      async (req) => okEnvelope(req, await admin.analytics(parseTool(req.params.tool), req.query.days)),
    );

    app.get(
      '/api/admin/:tool/collections',
      { schema: { operationId: 'adminListCollections', summary: 'Collections of a tool', tags, security, params: toolParams, response: { 200: envelopeSchema(z.array(collectionView)), ...errors } } },
      async (req) => okEnvelope(req, await admin.listCollections(parseTool(req.params.tool))),
    );

    app.post(
      '/api/admin/:tool/collections',
      {
        schema: {
          operationId: 'adminCreateCollection',
          summary: 'Create a collection',
          tags,
          security,
          params: toolParams,
          body: z.object({
            title: z.string().trim().min(1).max(200),
            description: z.string().trim().max(2000).optional(),
            slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/).max(80).optional(),
            isFeatured: z.boolean().optional(),
            isPublished: z.boolean().optional(),
            seoTitle: z.string().max(70).optional(),
            seoDescription: z.string().max(170).optional(),
            keywords: z.array(z.string().max(60)).max(10).optional(),
          }),
          response: { 201: envelopeSchema(collectionView), ...errors },
        },
      },
      async (req, reply) => reply.status(201).send(okEnvelope(req, await admin.createCollection(parseTool(req.params.tool), callerOf(req).userId, req.body))),
    );

    app.post(
      '/api/admin/:tool/collections/:id/generate-prompts',
      {
        schema: {
          operationId: 'adminGenerateIntoCollection',
          summary: 'Queue a bulk job whose items are added to the collection',
          tags,
          security,
          params: idParams,
          body: bulkBody.pick({ count: true, options: true, variations: true }),
          response: { 202: envelopeSchema(jobView), ...errors },
        },
      },
      async (req, reply) => reply.status(202).send(okEnvelope(req, await admin.generateIntoCollection(parseTool(req.params.tool), req.params.id, callerOf(req).userId, req.body))),
    );

    const flipbookView = z.object({ id: z.uuid(), shareCode: z.string(), title: z.string(), isPublic: z.boolean(), source: z.string(), pageCount: z.number().int(), fileSize: z.number().nullable(), createdAt: z.string(), expiresAt: z.string().nullable() });
    app.get(
      '/api/admin/flipbooks',
      {
        schema: {
          operationId: 'adminListFlipbooks',
          summary: 'Flipbooks with page counts and file sizes',
          tags,
          security,
          querystring: z.object({ page: z.coerce.number().int().min(1).default(1), limit: z.coerce.number().int().min(1).max(100).default(20) }),
          response: { 200: envelopeSchema(z.array(flipbookView)), ...errors },
        },
      },
      async (req) => okEnvelope(req, await admin.flipbooks(req.query.page, req.query.limit)),
    );

    app.delete(
      '/api/admin/flipbooks/:id',
      { schema: { operationId: 'adminDeleteFlipbook', summary: 'Remove a flipbook (its PDF is deleted by the purge)', tags, security, params: z.object({ id: z.uuid() }), response: { 200: envelopeSchema(z.object({ id: z.uuid(), deleted: z.literal(true) })), ...errors } } },
      async (req) => {
        await admin.removeFlipbook(req.params.id);
        return okEnvelope(req, { id: req.params.id, deleted: true as const });
      },
    );

    const sampleView = z.object({ tool: z.string(), id: z.uuid(), shareCode: z.string(), title: z.string() });
    app.get(
      '/api/admin/tools/samples',
      { schema: { operationId: 'adminListSamples', summary: 'Sample content per tool', tags, security, response: { 200: envelopeSchema(z.array(sampleView.extend({ createdAt: z.string() }))), ...errors } } },
      async (req) => okEnvelope(req, await admin.samples()),
    );

    app.post(
      '/api/admin/tools/samples/generate',
      {
        schema: {
          operationId: 'adminGenerateSamples',
          summary: 'Generate one public, featured sample per tool (all tools unless listed)',
          tags,
          security,
          body: z.object({ tools: z.array(z.enum(TOOL_ROUTES)).min(1).max(TOOL_ROUTES.length).optional() }).default({}),
          response: { 201: envelopeSchema(z.array(sampleView)), ...errors },
        },
      },
      async (req, reply) => {
        const tools = req.body.tools ?? TOOL_ROUTES;
        if (new Set(tools).size !== tools.length) throw toolsError.invalidInput('tools', 'tools must not repeat');
        return reply.status(201).send(okEnvelope(req, await admin.generateSamples(tools, { userId: callerOf(req).userId }, deps.sampleOptions)));
      },
    );
  };
