// /api/families/[familyId]/memories: the group's shared memories.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FamilyService } from '../family.service';
import { addMemoryBody, memoryPage, memoryParams, memoryView, updateMemoryBody } from './memories.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

export const memoriesRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/families/:familyId/memories',
      {
        schema: {
          operationId: 'listFamilyMemories',
          summary: "The group's shared memories, newest first",
          tags,
          security,
          params: familyParams,
          querystring: memoryPage,
          response: { 200: z.object({ memories: z.array(memoryView) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ memories: await family.listMemories(callerOf(req).userId, req.params.familyId, req.query.limit, req.query.offset) }),
    );

    app.post(
      '/api/families/:familyId/memories',
      {
        schema: {
          operationId: 'addFamilyMemory',
          summary: 'Add a shared memory, optionally with your own photos (contributors and owner)',
          tags,
          security,
          params: familyParams,
          body: addMemoryBody,
          response: { 201: z.object({ memory: memoryView }), ...e([400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ memory: await family.addMemory(callerOf(req).userId, req.params.familyId, req.body) }),
    );

    app.get(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: { operationId: 'getFamilyMemory', summary: 'One shared memory', tags, security, params: memoryParams, response: { 200: z.object({ memory: memoryView }), ...e([400, 401, 404, 429] as const) } },
      },
      async (req) => ({ memory: await family.getMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId) }),
    );

    app.put(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: {
          operationId: 'updateFamilyMemory',
          summary: 'Edit a shared memory (its author, or the owner)',
          tags,
          security,
          params: memoryParams,
          body: updateMemoryBody,
          response: { 200: z.object({ memory: memoryView }), ...e([400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ memory: await family.updateMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId, req.body) }),
    );

    app.delete(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: {
          operationId: 'deleteFamilyMemory',
          summary: 'Delete a shared memory (its author, or the owner)',
          tags,
          security,
          params: memoryParams,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...e([400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await family.deleteMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId)) }),
    );
  };
