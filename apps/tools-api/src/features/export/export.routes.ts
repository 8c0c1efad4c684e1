// POST /api/:tool/:id/export (id or share code): a file download in the asked format. The body is
// rendered in memory and sent with its Content-Length (spec 002): exports are a few pages of text.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeMedia } from '@story/http';
import { requireToolsSession, toolsCallerOf } from '../../shared/caller';
import type { ToolsFeatureDeps } from '../../shared/deps';
import { toolsErrors } from '../../shared/envelope';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import { DEFAULT_EXPORT_OPTIONS, EXPORT_TEMPLATES } from './export.renderers';
import { createExportService } from './export.service';

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

const optionsSchema = z
  .object({
    includeMetadata: z.boolean().default(DEFAULT_EXPORT_OPTIONS.includeMetadata),
    includeResponses: z.boolean().default(DEFAULT_EXPORT_OPTIONS.includeResponses),
    theme: z.preprocess(lower, z.enum(['light', 'dark'])).default(DEFAULT_EXPORT_OPTIONS.theme),
    template: z.preprocess(lower, z.enum(EXPORT_TEMPLATES)).default(DEFAULT_EXPORT_OPTIONS.template),
    pageSize: z.preprocess(lower, z.enum(['a4', 'letter'])).default(DEFAULT_EXPORT_OPTIONS.pageSize),
    fontSize: z.number().min(8).max(24).default(DEFAULT_EXPORT_OPTIONS.fontSize),
  })
  .strict();

const bodySchema = z.object({
  // Checked by the service so an unknown value is INVALID_FORMAT (spec 002), not a generic INVALID_INPUT.
  format: z.string().min(1).max(20),
  options: optionsSchema.default(() => ({ ...DEFAULT_EXPORT_OPTIONS })),
  sessionId: z.string().max(100).optional(),
});

export const exportRoutes =
  (deps: Pick<ToolsFeatureDeps, 'sql' | 'tokens' | 'sessions' | 'ipHashKey'>): FastifyPluginAsyncZod =>
  async (app) => {
    const service = createExportService(deps);
    const session = requireToolsSession(deps);

    app.post(
      '/api/:tool/:id/export',
      {
        onRequest: async (req) => {
          parseTool((req.params as { tool: string }).tool);
          await session(req);
        },
        schema: {
          operationId: 'exportToolContent',
          summary: 'Download content as json, csv, pdf, html or docx (flashcards also anki and quizlet import text)',
          description:
            'Content the caller may see (public, or their own by session or account). Answers the file with Content-Type, ' +
            'Content-Disposition attachment; filename="content-export.<ext>" and Content-Length; counts the export.',
          tags: ['export'],
          params: z.object({ tool: toolPathParam, id: z.string().min(1).max(100) }),
          body: bodySchema,
          ...routeMedia({
            answers: {
              200: {
                types: ['application/json', 'text/csv', 'application/pdf', 'text/html', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/plain'],
                description: 'The file in the asked format (text/plain: the flashcard study-app imports), as an attachment',
              },
            },
            headers: {
              200: {
                'Content-Disposition': { description: 'attachment; filename="content-export.<ext>"', schema: { type: 'string' } },
                'Content-Length': { description: 'Bytes of the file', schema: { type: 'integer' } },
              },
            },
          }),
          response: {
            200: z.any().describe('The exported file (binary for pdf and docx)'),
            ...toolsErrors([400, 401, 404, 413, 415, 422, 429, 500] as const),
          },
        },
      },
      async (req, reply) => {
        const tool = parseTool(req.params.tool);
        const file = await service.export(tool, req.params.id, req.body.format.toLowerCase(), req.body.options, toolsCallerOf(req));
        return reply
          .header('Content-Type', file.contentType)
          .header('Content-Disposition', `attachment; filename="content-export.${file.extension}"`)
          .header('Content-Length', String(file.body.length))
          .header('Cache-Control', 'no-store')
          .send(file.body);
      },
    );
  };
