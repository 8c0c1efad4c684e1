// /api/families/[familyId]/media and /story-prompts: what the group has to look at and to tell about.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FamilyService } from '../family.service';
import { mediaItem, storyPrompt } from './media.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

export const mediaRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/families/:familyId/media',
      {
        schema: {
          operationId: 'listFamilyMedia',
          summary: "Photos of the group's memories and of its members, newest first",
          tags,
          security,
          params: familyParams,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
          response: { 200: z.object({ media: z.array(mediaItem) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ media: await family.listMedia(callerOf(req).userId, req.params.familyId, req.query.limit) }),
    );

    app.get(
      '/api/families/:familyId/story-prompts',
      {
        schema: {
          operationId: 'listFamilyStoryPrompts',
          summary: "Story prompts suited to the family's relationships",
          tags,
          security,
          params: familyParams,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
          response: { 200: z.object({ prompts: z.array(storyPrompt) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => family.storyPrompts(callerOf(req).userId, req.params.familyId, req.query.limit),
    );
  };
