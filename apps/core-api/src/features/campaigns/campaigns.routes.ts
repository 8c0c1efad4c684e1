// GET/POST /api/campaigns (authenticated scope).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { CAMPAIGN_RELATIONSHIPS } from '@story/db';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { CampaignsService } from './campaigns.service';

const campaignView = z.object({
  id: z.uuid(),
  title: z.string(),
  description: z.string(),
  recordingCount: z.number().int(),
  conversationCount: z.number().int(),
  createdAt: z.string(),
});

const createBody = z.object({
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().max(5000).optional(),
  storytellerName: z.string().trim().min(1).max(200).optional(),
  storytellerEmail: z.email().max(254).optional(),
  relationship: z.enum(CAMPAIGN_RELATIONSHIPS).optional(),
});

export const campaignsRoutes =
  ({ campaigns }: { campaigns: CampaignsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/',
      {
        schema: {
          operationId: 'listCampaigns',
          summary: "The caller's campaigns, newest first",
          tags: ['campaigns'],
          security: [{ bearerAuth: [] }],
          response: { 200: z.array(campaignView), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      // Already JSON in the declared shape (built by PostgreSQL): sent as is, not serialised again.
      async (req, reply) => reply.type('application/json; charset=utf-8').send((await campaigns.listJson(callerOf(req).userId)) as never),
    );

    app.post(
      '/',
      {
        schema: {
          operationId: 'createCampaign',
          summary: "Create a campaign (counts against the tier's campaigns allowance: 403 naming the limit when reached)",
          tags: ['campaigns'],
          security: [{ bearerAuth: [] }],
          body: createBody,
          response: { 201: campaignView, ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send(await campaigns.create(callerOf(req).userId, req.body)),
    );
  };
