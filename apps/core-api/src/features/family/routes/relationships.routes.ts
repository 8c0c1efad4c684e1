// /api/families/[familyId]/relationships: edges between members, and the closed list of their types.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { RELATIONSHIP_TYPES } from '../family.constants';
import type { FamilyService } from '../family.service';
import { addRelationshipBody, relationshipView } from './relationships.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

export const relationshipsRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/families/:familyId/relationships',
      {
        schema: {
          operationId: 'listFamilyRelationships',
          summary: 'Relationships between members, and the closed list of relationship types',
          tags,
          security,
          params: familyParams,
          response: { 200: z.object({ relationships: z.array(relationshipView), types: z.array(z.string()) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ relationships: await family.listRelationships(callerOf(req).userId, req.params.familyId), types: [...RELATIONSHIP_TYPES] }),
    );

    app.post(
      '/api/families/:familyId/relationships',
      {
        schema: {
          operationId: 'addFamilyRelationship',
          summary: 'Record that one member is the <relationshipType> of another (contributors and owner)',
          tags,
          security,
          params: familyParams,
          body: addRelationshipBody,
          response: { 201: z.object({ relationship: relationshipView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ relationship: await family.addRelationship(callerOf(req).userId, req.params.familyId, req.body) }),
    );
  };
