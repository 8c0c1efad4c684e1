// /api/templates/books|covers|[relationshipType] and /api/books/templates (authenticated scope).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { coreErrorSchema, errorResponses } from '@story/http';
import { RELATIONSHIP_TYPES } from './templates.catalogue';
import type { TemplatesService } from './templates.service';

const template = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  preview_url: z.string().nullable(),
  category: z.string().nullable(),
  relationship_type: z.string().nullable(),
});
const templateList = z.object({ templates: z.array(template) });
const tags = ['templates'];
const security = [{ bearerAuth: [] }];
const errors = errorResponses(coreErrorSchema, [401, 429] as const);

export const templatesRoutes =
  ({ templates }: { templates: TemplatesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/templates/books',
      { schema: { operationId: 'listBookTemplates', summary: 'Book (interior) templates', tags, security, response: { 200: templateList, ...errors } } },
      async () => ({ templates: await templates.bookTemplates() }),
    );
    app.get(
      '/api/books/templates',
      { schema: { operationId: 'listBookTemplatesForBooks', summary: 'Book templates (same list as /api/templates/books)', tags, security, response: { 200: templateList, ...errors } } },
      async () => ({ templates: await templates.bookTemplates() }),
    );
    app.get(
      '/api/templates/covers',
      { schema: { operationId: 'listCoverTemplates', summary: 'Cover templates', tags, security, response: { 200: templateList, ...errors } } },
      async () => ({ templates: await templates.coverTemplates() }),
    );
    app.get(
      '/api/templates/:relationshipType',
      {
        schema: {
          operationId: 'listTemplatesForRelationship',
          summary: `Book and cover templates suited to one relationship (${RELATIONSHIP_TYPES.join(', ')})`,
          tags,
          security,
          params: z.object({ relationshipType: z.enum(RELATIONSHIP_TYPES) }),
          response: {
            200: z.object({ relationshipType: z.enum(RELATIONSHIP_TYPES), templates: z.array(template), covers: z.array(template) }),
            ...errorResponses(coreErrorSchema, [400, 401, 429] as const),
          },
        },
      },
      async (req) => templates.forRelationship(req.params.relationshipType),
    );
  };
