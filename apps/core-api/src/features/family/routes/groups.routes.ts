// /api/family/groups: the caller's family groups, creating one, reading one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FamilyService } from '../family.service';
import { createGroupBody, groupDetail, groupView } from './groups.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

export const groupsRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/family/groups',
      {
        schema: {
          operationId: 'listFamilyGroups',
          summary: 'Family groups the caller is an active member of, with member_count and the caller\'s role',
          tags,
          security,
          response: { 200: z.object({ success: z.literal(true), data: z.array(groupView) }), ...e([401, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, data: await family.listGroups(callerOf(req).userId) }),
    );

    app.post(
      '/api/family/groups',
      {
        schema: {
          operationId: 'createFamilyGroup',
          summary: 'Create a family group; the caller becomes its owner',
          tags,
          security,
          body: createGroupBody,
          response: { 201: z.object({ success: z.literal(true), data: groupDetail }), ...e([400, 401, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ success: true as const, data: await family.createGroup(callerOf(req).userId, req.body) }),
    );

    app.get(
      '/api/family/groups/:familyId',
      {
        schema: {
          operationId: 'getFamilyGroup',
          summary: 'One family group the caller belongs to',
          tags,
          security,
          params: familyParams,
          response: { 200: z.object({ success: z.literal(true), data: groupDetail }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, data: await family.getGroup(callerOf(req).userId, req.params.familyId) }),
    );
  };
