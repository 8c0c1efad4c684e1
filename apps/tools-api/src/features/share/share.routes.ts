// POST /api/:tool/share (set a link public, private or expiring; count the share),
// GET /api/:tool/share/:shareCode (the shared item with analytics and public responses), and the
// owner's PATCH / DELETE /api/flashcards/[shareCode] (deck metadata; delete).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SHARE_TYPES } from '@story/db';
import { optionalToolsSession, requireToolsSession, toolsCallerOf } from '../../shared/caller';
import type { ToolsFeatureDeps } from '../../shared/deps';
import { envelopeSchema, okEnvelope, toolsErrors } from '../../shared/envelope';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import { createFlashcardDeckService } from './flashcard-deck.service';
import { createShareService } from './share.service';

const shareResultSchema = z.object({
  shareCode: z.string(),
  shareUrl: z.string(),
  shareType: z.enum(SHARE_TYPES),
  isPublic: z.boolean(),
  expiresAt: z.string().optional(),
  shareCount: z.number().int(),
  createdAt: z.string(),
});

const sharedItemSchema = z.object({
  id: z.string(),
  tool: z.string(),
  shareCode: z.string(),
  title: z.string(),
  content: z.record(z.string(), z.unknown()),
  shareType: z.enum(SHARE_TYPES),
  seoMetadata: z.object({ title: z.string(), description: z.string(), keywords: z.array(z.string()) }),
  analytics: z.object({ viewCount: z.number().int(), shareCount: z.number().int(), responseCount: z.number().int(), averageRating: z.number() }),
  responses: z.array(z.object({ id: z.string(), title: z.string(), content: z.string(), wordCount: z.number().int(), isPublic: z.boolean(), createdAt: z.string() })),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
});

export const shareRoutes =
  (deps: Pick<ToolsFeatureDeps, 'sql' | 'tokens' | 'sessions' | 'ipHashKey' | 'publicBaseUrl'>): FastifyPluginAsyncZod =>
  async (app) => {
    const service = createShareService(deps);
    const withTool = (hook: (req: FastifyRequest) => Promise<void>) => async (req: FastifyRequest) => {
      parseTool((req.params as { tool: string }).tool);
      await hook(req);
    };

    app.post(
      '/api/:tool/share',
      {
        onRequest: withTool(requireToolsSession(deps)),
        schema: {
          operationId: 'shareToolContent',
          summary: 'Share an item: the owner sets the link public, private or expiring (expiresAt); anyone may share a public item',
          tags: ['share'],
          params: z.object({ tool: toolPathParam }),
          body: z.object({
            contentId: z.string().min(1).max(100),
            sessionId: z.string().max(100).optional(),
            shareType: z.enum(SHARE_TYPES).optional(),
            expiresAt: z.iso.datetime({ offset: true }).optional(),
            /** Where it was shared (twitter, facebook, email, link ...), for the shares-by-platform analytics. */
            platform: z
              .string()
              .trim()
              .toLowerCase()
              .regex(/^[a-z0-9_-]{1,30}$/, 'must be a short name such as twitter, email or link')
              .optional(),
          }),
          response: { 200: envelopeSchema(shareResultSchema), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req) => okEnvelope(req, await service.share(parseTool(req.params.tool), req.body, toolsCallerOf(req))),
    );

    app.get(
      '/api/:tool/share/:shareCode',
      {
        onRequest: withTool(optionalToolsSession(deps)),
        schema: {
          operationId: 'getSharedToolContent',
          summary: 'A shared item by its share code, with analytics and public responses (private links: owner only; expired: 404)',
          tags: ['share'],
          params: z.object({ tool: toolPathParam, shareCode: z.string().min(1).max(100) }),
          querystring: z.object({ sessionId: z.string().max(100).optional() }),
          response: { 200: envelopeSchema(sharedItemSchema), ...toolsErrors([400, 401, 404] as const) },
        },
      },
      async (req) => {
        const caller = toolsCallerOf(req);
        const item = await service.getShared(parseTool(req.params.tool), req.params.shareCode, caller);
        // Anonymous readers of a shared item are who the free tools hope to convert.
        return okEnvelope(req, item, { conversionOpportunity: caller.userId === null });
      },
    );

    const decks = createFlashcardDeckService(deps);
    const deckView = z.object({
      id: z.string(),
      shareCode: z.string(),
      title: z.string(),
      deckName: z.string(),
      description: z.string().nullable(),
      isPublic: z.boolean(),
      shareType: z.string(),
      cardCount: z.number().int(),
      updatedAt: z.string(),
    });
    const deckParams = z.object({ shareCode: z.string().min(1).max(100) });
    const required = requireToolsSession(deps);

    app.patch(
      '/api/flashcards/:shareCode',
      {
        onRequest: required,
        schema: {
          operationId: 'updateFlashcardDeck',
          summary: 'Change a deck’s metadata (owner only): deckName, description, isPublic',
          tags: ['flashcards'],
          params: deckParams,
          body: z.object({
            sessionId: z.string().max(100).optional(),
            deckName: z.string().trim().min(1).max(200).optional(),
            description: z.string().trim().max(1000).nullable().optional(),
            isPublic: z.boolean().optional(),
          }),
          response: { 200: envelopeSchema(deckView), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req) => okEnvelope(req, await decks.update(req.params.shareCode, req.body, toolsCallerOf(req))),
    );

    app.delete(
      '/api/flashcards/:shareCode',
      {
        onRequest: required,
        schema: {
          operationId: 'deleteFlashcardDeck',
          summary: 'Delete a deck (owner only), with its responses, collection entries and saved copies',
          tags: ['flashcards'],
          params: deckParams,
          body: z.object({ sessionId: z.string().max(100).optional() }).nullish(),
          response: { 200: envelopeSchema(z.object({ id: z.string(), deleted: z.literal(true) })), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req) => okEnvelope(req, await decks.remove(req.params.shareCode, req.body ?? {}, toolsCallerOf(req))),
    );
  };
