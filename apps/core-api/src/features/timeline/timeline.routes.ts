// GET /api/family/timeline and reactions on its events (authenticated scope).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { REACTION_TYPES } from '@story/db';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { TimelineService } from './timeline.service';

const reactionCounts = z.object({ like: z.number().int(), love: z.number().int(), celebrate: z.number().int() });

const eventView = z.object({
  id: z.uuid(),
  familyGroupId: z.uuid().nullable(),
  actor: z.object({ id: z.uuid().nullable(), name: z.string().nullable() }),
  eventType: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.uuid().nullable(),
  title: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  occurredAt: z.string(),
  reactions: reactionCounts,
  myReaction: z.enum(REACTION_TYPES).nullable(),
});

const security = [{ bearerAuth: [] }];

export const timelineRoutes =
  ({ timeline }: { timeline: TimelineService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/family/timeline',
      {
        schema: {
          operationId: 'getFamilyTimeline',
          summary: "Events of the caller's family groups, newest first (keyset paged)",
          tags: ['timeline'],
          security,
          querystring: z.object({
            familyId: z.uuid().optional(),
            limit: z.coerce.number().int().min(1).max(100).default(30),
            cursor: z.string().max(200).optional(),
          }),
          response: { 200: z.object({ events: z.array(eventView), nextCursor: z.string().nullable() }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => timeline.list(callerOf(req).userId, { familyId: req.query.familyId, limit: req.query.limit, cursor: req.query.cursor }),
    );

    app.post(
      '/api/timeline/events/:eventId/reactions',
      {
        schema: {
          operationId: 'reactToTimelineEvent',
          summary: 'React to a timeline event (one reaction per person per event; reacting again changes it)',
          tags: ['timeline'],
          security,
          params: z.object({ eventId: z.uuid() }),
          body: z.object({ type: z.enum(REACTION_TYPES) }),
          response: {
            200: z.object({ eventId: z.uuid(), type: z.enum(REACTION_TYPES), reactions: reactionCounts }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const),
          },
        },
      },
      async (req) => timeline.react(callerOf(req).userId, req.params.eventId, req.body.type),
    );

    app.delete(
      '/api/timeline/events/:eventId/reactions',
      {
        schema: {
          operationId: 'removeTimelineReaction',
          summary: "Take back the caller's reaction to a timeline event",
          tags: ['timeline'],
          security,
          params: z.object({ eventId: z.uuid() }),
          response: { 200: z.object({ eventId: z.uuid(), reactions: reactionCounts }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => timeline.unreact(callerOf(req).userId, req.params.eventId),
    );
  };
