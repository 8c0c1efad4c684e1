// GET /api/reference-data/[collection] (spec 000 misc; CONTRACTS §9: a list, unknown collection 404),
// authenticated scope. Like every authenticated JSON answer it is sent with Cache-Control: no-store (libs/http security.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { coreErrorSchema, errorResponses, notFound } from '@story/http';
import { REFERENCE_COLLECTION_NAMES, REFERENCE_COLLECTIONS, type ReferenceCollection } from './reference-data.catalogue';

const item = z.object({ id: z.string(), name: z.string(), description: z.string().optional(), category: z.string().optional() });
const isCollection = (name: string): name is ReferenceCollection => (REFERENCE_COLLECTION_NAMES as string[]).includes(name);

export const referenceDataRoutes = (): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/api/reference-data/:collection',
    {
      schema: {
        operationId: 'getReferenceData',
        summary: `One reference list: ${REFERENCE_COLLECTION_NAMES.join(', ')}; any other name answers 404`,
        tags: ['reference-data'],
        security: [{ bearerAuth: [] }],
        params: z.object({ collection: z.string().max(100) }),
        response: { 200: z.array(item), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
      },
    },
    async (req) => {
      const { collection } = req.params;
      if (!isCollection(collection)) throw notFound('Reference collection', { details: `collections: ${REFERENCE_COLLECTION_NAMES.join(', ')}` });
      return REFERENCE_COLLECTIONS[collection];
    },
  );
};
