// POST /api/:tool/generate (X-Session-ID required): the generate result in the envelope, with rateLimit and
// conversionOpportunity in meta.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireToolsSession, toolsCallerOf, type ToolsSessionDeps } from '../../shared/caller';
import { envelopeSchema, okEnvelope, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import type { GenerateService } from './generate.service';

export const seoMetadataSchema = z.object({ title: z.string(), description: z.string(), keywords: z.array(z.string()) });
export const generateResultSchema = z.object({
  id: z.uuid(),
  shareCode: z.string(),
  title: z.string(),
  content: z.record(z.string(), z.unknown()),
  seoMetadata: seoMetadataSchema,
  aiMetadata: z.object({
    model: z.string().nullable().describe('The AI model, or the offline generator (local-<tool>); null when neither made it (a flipbook of a PDF’s own pages)'),
    provider: z.string().describe('openai or anthropic (a model), local (the offline generator) or none'),
    tokensUsed: z.number().int().nullable().describe('Tokens as the model reported them; null when no model ran'),
    processingTime: z.number(),
    confidenceScore: z.number().min(0).max(1).nullable().describe('Null: no confidence is measured'),
    isAiGenerated: z.boolean().describe('True only when an AI model wrote the content'),
    fallback: z.boolean(),
    note: z.string().optional(),
  }),
  isPublic: z.boolean(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  shareUrl: z.string(),
});

const generateBody = z.object({
  sessionId: z.string().max(100).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  humanVerification: z.string().max(4096).optional(),
});

/** onRequest: an unknown tool is 404 before anything else, then the session. */
export function toolAndSession(deps: ToolsSessionDeps) {
  const session = requireToolsSession(deps);
  return async (req: FastifyRequest) => {
    parseTool((req.params as { tool: string }).tool);
    await session(req);
  };
}

export const generateRoutes =
  (deps: ToolsSessionDeps & { generate: GenerateService; publicBaseUrl: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/:tool/generate',
      {
        onRequest: toolAndSession(deps),
        schema: {
          operationId: 'generateToolContent',
          summary: 'Generate content with a tool (options are tool-specific; see each tool’s page)',
          tags: ['generate'],
          params: z.object({ tool: toolPathParam }),
          body: generateBody,
          response: { 201: envelopeSchema(generateResultSchema), ...toolsErrors([400, 401, 404, 413, 415, 429, 500, 502] as const) },
        },
      },
      async (req, reply) => {
        const tool = parseTool(req.params.tool);
        const caller = toolsCallerOf(req);
        if (req.body.sessionId !== undefined && req.body.sessionId !== caller.sessionId) throw toolsError.invalidInput('sessionId', 'sessionId must match the X-Session-ID header');
        const { result, rateLimit, conversionOpportunity } = await deps.generate.generate(tool, req.body.options ?? {}, caller);
        return reply.status(201).send(okEnvelope(req, { ...result, shareUrl: `${deps.publicBaseUrl}/${tool}/${result.shareCode}/` }, { rateLimit, conversionOpportunity }));
      },
    );
  };
