// Responses to generated content (create, list, get, PATCH, soft DELETE) for every tool, and the story
// prompt extras: analyze-response, save (and saved / unsave), collections. Writes need X-Session-ID.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionalToolsSession, requireToolsSession, toolsCallerOf } from '../../shared/caller';
import type { ToolsFeatureDeps } from '../../shared/deps';
import { envelopeSchema, okEnvelope, paginationMeta, toolsErrors } from '../../shared/envelope';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import { boolParam, intParam } from './query-params';
import { createPromptLibraryService } from './prompt-library.service';
import { createResponsesService } from './responses.service';

const codePoints = (s: string) => [...s].length;

export const responseTitle = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(400)
  .refine((s) => codePoints(s) <= 200, 'must be at most 200 characters');
export const responseContent = z
  .string()
  .max(100_000)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => codePoints(s) <= 50_000, 'must be at most 50000 characters');
const sessionIdField = z.string().max(100);

export const responseViewSchema = z.object({
  id: z.string(),
  tool: z.string(),
  promptId: z.string(),
  title: z.string(),
  content: z.string(),
  wordCount: z.number().int(),
  characterCount: z.number().int(),
  isPublic: z.boolean(),
  moderationStatus: z.string(),
  viewCount: z.number().int(),
  likeCount: z.number().int(),
  shareCount: z.number().int(),
  qualityScore: z.number().nullable(),
  isOwner: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const savedPromptSchema = z.object({
  id: z.string(),
  promptId: z.string(),
  shareCode: z.string(),
  title: z.string(),
  prompt: z.string().nullable(),
  notes: z.string().nullable(),
  savedAt: z.string(),
});

const collectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  slug: z.string(),
  isFeatured: z.boolean(),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
  keywords: z.array(z.string()),
  itemCount: z.number().int(),
  prompts: z.array(z.object({ id: z.string(), shareCode: z.string(), title: z.string(), prompt: z.string().nullable(), position: z.number().int() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const score = z.number();
const analysisSchema = z.object({
  analyzer: z.string(),
  promptId: z.string().nullable(),
  responseId: z.string().nullable(),
  stored: z.boolean(),
  wordCount: z.number().int(),
  characterCount: z.number().int(),
  sentenceCount: z.number().int(),
  paragraphCount: z.number().int(),
  averageSentenceLength: z.number(),
  readingTimeMinutes: z.number(),
  readability: z.object({ fleschReadingEase: z.number(), fleschKincaidGrade: z.number(), level: z.string() }),
  vocabulary: z.object({ uniqueWords: z.number().int(), lexicalDiversity: z.number() }),
  style: z.object({ dialogueRatio: z.number(), adverbRatio: z.number(), passiveSentences: z.number().int(), sensoryDetails: z.number().int(), sentenceLengthVariation: z.number() }),
  sentiment: z.object({ score: z.number(), label: z.enum(['positive', 'negative', 'neutral']), positiveWords: z.number().int(), negativeWords: z.number().int() }),
  promptElements: z.object({
    coverage: z.number(),
    elements: z.array(z.object({ element: z.string(), text: z.string(), matched: z.array(z.string()), used: z.boolean() })),
  }),
  scores: z.object({ length: score, readability: score, vocabulary: score, structure: score, promptUse: score, craft: score }),
  qualityScore: z.number(),
  strengths: z.array(z.string()),
  suggestions: z.array(z.string()),
});

const pageQuery = z.object({ page: z.string().optional(), limit: z.string().optional(), public: z.string().optional(), sessionId: z.string().max(100).optional() });

export const responsesRoutes =
  (deps: Pick<ToolsFeatureDeps, 'sql' | 'tokens' | 'sessions' | 'ipHashKey' | 'limitScale'>): FastifyPluginAsyncZod =>
  async (app) => {
    const service = createResponsesService({ sql: deps.sql, limitScale: deps.limitScale });
    const library = createPromptLibraryService({ sql: deps.sql });
    const required = requireToolsSession(deps);
    const optional = optionalToolsSession(deps);
    // The tool is checked before the session so an unknown tool is 404 without touching tools_sessions.
    const withTool = (hook: (req: FastifyRequest) => Promise<void>) => async (req: FastifyRequest) => {
      parseTool((req.params as { tool: string }).tool);
      await hook(req);
    };
    const tags = ['responses'];
    const toolAndId = z.object({ tool: toolPathParam, id: z.string().min(1).max(100) });
    const toolAndResponse = z.object({ tool: toolPathParam, responseId: z.string().min(1).max(100) });

    app.post(
      '/api/:tool/:id/responses',
      {
        onRequest: withTool(required),
        schema: {
          operationId: 'createResponse',
          summary: 'Write a response to a generated item (5 a day anonymous, 50 signed in, per tool)',
          tags,
          params: toolAndId,
          body: z.object({ sessionId: sessionIdField.optional(), title: responseTitle, content: responseContent, isPublic: z.boolean().default(false) }),
          response: { 201: envelopeSchema(responseViewSchema), ...toolsErrors([400, 401, 403, 404, 413, 429, 500] as const) },
        },
      },
      async (req, reply) => {
        const { response, rateLimit } = await service.create(parseTool(req.params.tool), req.params.id, req.body, toolsCallerOf(req));
        return reply.status(201).send(okEnvelope(req, response, { rateLimit }));
      },
    );

    app.get(
      '/api/:tool/:id/responses',
      {
        onRequest: withTool(optional),
        schema: {
          operationId: 'listResponses',
          summary: 'Responses to an item: public ones plus the session’s own (page, limit up to 50, public)',
          tags,
          params: toolAndId,
          querystring: pageQuery,
          response: { 200: envelopeSchema(z.array(responseViewSchema)), ...toolsErrors([400, 401, 404] as const) },
        },
      },
      async (req) => {
        const page = intParam(req.query.page, 'page', 1, 1, 100_000);
        const limit = intParam(req.query.limit, 'limit', 10, 1, 50);
        const { items, total } = await service.list(parseTool(req.params.tool), req.params.id, { page, limit, isPublic: boolParam(req.query.public, 'public') }, toolsCallerOf(req));
        return okEnvelope(req, items, { pagination: paginationMeta(page, limit, total) });
      },
    );

    app.get(
      '/api/:tool/responses/:responseId',
      {
        onRequest: withTool(optional),
        schema: {
          operationId: 'getResponse',
          summary: 'One response (public, or the session’s own)',
          tags,
          params: toolAndResponse,
          querystring: z.object({ sessionId: z.string().max(100).optional() }),
          response: { 200: envelopeSchema(responseViewSchema), ...toolsErrors([400, 401, 404] as const) },
        },
      },
      async (req) => okEnvelope(req, await service.get(parseTool(req.params.tool), req.params.responseId, toolsCallerOf(req))),
    );

    app.patch(
      '/api/:tool/responses/:responseId',
      {
        onRequest: withTool(required),
        schema: {
          operationId: 'updateResponse',
          summary: 'Change a response (the session that wrote it only); changed text goes back to moderation',
          tags,
          params: toolAndResponse,
          body: z.object({ sessionId: sessionIdField, title: responseTitle.optional(), content: responseContent.optional(), isPublic: z.boolean().optional() }),
          response: { 200: envelopeSchema(responseViewSchema), ...toolsErrors([400, 401, 403, 404, 413] as const) },
        },
      },
      async (req) => okEnvelope(req, await service.update(parseTool(req.params.tool), req.params.responseId, req.body, toolsCallerOf(req))),
    );

    app.delete(
      '/api/:tool/responses/:responseId',
      {
        onRequest: withTool(required),
        schema: {
          operationId: 'deleteResponse',
          summary: 'Soft-delete a response (the session that wrote it only); sessionId defaults to X-Session-ID',
          tags,
          params: toolAndResponse,
          body: z.object({ sessionId: sessionIdField.optional(), reason: z.string().trim().max(500).optional() }).nullish(),
          response: { 200: envelopeSchema(z.object({ id: z.string(), deleted: z.literal(true), deletedAt: z.string() })), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req) => okEnvelope(req, await service.remove(parseTool(req.params.tool), req.params.responseId, req.body ?? {}, toolsCallerOf(req))),
    );

    const storyTags = ['story-prompts'];

    app.post(
      '/api/story-prompts/analyze-response',
      {
        onRequest: required,
        schema: {
          operationId: 'analyzeStoryResponse',
          summary: 'Offline analysis of a response to a story prompt: length, readability, vocabulary, sentiment, use of the prompt',
          description: 'Send responseId (the owner also gets the quality score stored) or content with an optional promptId. No AI model is used (analyzer local-heuristic-v1).',
          tags: storyTags,
          body: z
            .object({ sessionId: sessionIdField.optional(), promptId: z.string().min(1).max(100).optional(), responseId: z.string().min(1).max(100).optional(), content: responseContent.optional() })
            .refine((b) => b.responseId !== undefined || b.content !== undefined, { message: 'send content or responseId', path: ['content'] }),
          response: { 200: envelopeSchema(analysisSchema), ...toolsErrors([400, 401, 403, 404, 413] as const) },
        },
      },
      async (req) => okEnvelope(req, await service.analyze(req.body, toolsCallerOf(req))),
    );

    app.post(
      '/api/story-prompts/save',
      {
        onRequest: required,
        schema: {
          operationId: 'saveStoryPrompt',
          summary: 'Save a story prompt for later (201 the first time, 200 when already saved)',
          tags: storyTags,
          body: z.object({ promptId: z.string().min(1).max(100), sessionId: sessionIdField.optional(), notes: z.string().trim().max(2000).optional() }),
          response: {
            200: envelopeSchema(savedPromptSchema),
            201: envelopeSchema(savedPromptSchema),
            ...toolsErrors([400, 401, 403, 404] as const),
          },
        },
      },
      async (req, reply) => {
        const { saved, created } = await library.savePrompt(req.body, toolsCallerOf(req));
        return reply.status(created ? 201 : 200).send(okEnvelope(req, saved));
      },
    );

    app.delete(
      '/api/story-prompts/save/:promptId',
      {
        onRequest: required,
        schema: {
          operationId: 'unsaveStoryPrompt',
          summary: 'Remove a saved story prompt',
          tags: storyTags,
          params: z.object({ promptId: z.string().min(1).max(100) }),
          response: { 200: envelopeSchema(z.object({ promptId: z.string(), removed: z.boolean() })), ...toolsErrors([400, 401] as const) },
        },
      },
      async (req) => okEnvelope(req, { promptId: req.params.promptId, removed: await library.unsavePrompt(req.params.promptId, toolsCallerOf(req)) }),
    );

    app.get(
      '/api/story-prompts/saved',
      {
        onRequest: required,
        schema: {
          operationId: 'listSavedStoryPrompts',
          summary: 'The session’s (and account’s) saved story prompts, newest first',
          tags: storyTags,
          querystring: z.object({ page: z.string().optional(), limit: z.string().optional() }),
          response: { 200: envelopeSchema(z.array(savedPromptSchema)), ...toolsErrors([400, 401] as const) },
        },
      },
      async (req) => {
        const page = intParam(req.query.page, 'page', 1, 1, 100_000);
        const limit = intParam(req.query.limit, 'limit', 20, 1, 100);
        const { items, total } = await library.savedPrompts(toolsCallerOf(req), page, limit);
        return okEnvelope(req, items, { pagination: paginationMeta(page, limit, total) });
      },
    );

    app.get(
      '/api/story-prompts/collections',
      {
        schema: {
          operationId: 'listStoryPromptCollections',
          summary: 'Published story-prompt collections, featured first, with their first prompts',
          tags: storyTags,
          querystring: z.object({ page: z.string().optional(), limit: z.string().optional() }),
          response: { 200: envelopeSchema(z.array(collectionSchema)), ...toolsErrors([400] as const) },
        },
      },
      async (req) => {
        const page = intParam(req.query.page, 'page', 1, 1, 100_000);
        const limit = intParam(req.query.limit, 'limit', 20, 1, 100);
        const { items, total } = await library.collections(page, limit);
        return okEnvelope(req, items, { pagination: paginationMeta(page, limit, total) });
      },
    );

    app.get(
      '/api/story-prompts/collections/:slug',
      {
        schema: {
          operationId: 'getStoryPromptCollection',
          summary: 'One published story-prompt collection with its prompts',
          tags: storyTags,
          params: z.object({ slug: z.string().min(1).max(200) }),
          response: { 200: envelopeSchema(collectionSchema), ...toolsErrors([404] as const) },
        },
      },
      async (req) => okEnvelope(req, await library.collection(req.params.slug)),
    );
  };
