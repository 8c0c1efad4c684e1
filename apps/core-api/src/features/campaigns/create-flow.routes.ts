// The multi-step campaign create flow under /api/campaigns/create-flow (authenticated scope). Step bodies
// are validated per step by the service (the step number decides the schema); 400 names the field.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { CreateFlowService } from './create-flow.service';

const flowState = z.object({
  campaignId: z.uuid(),
  status: z.string(),
  currentStep: z.number().int(),
  steps: z.record(z.string(), z.unknown()),
  familyGroupId: z.uuid().nullable(),
  familyMembers: z.array(
    z.object({
      email: z.string(),
      name: z.string().nullable(),
      role: z.string(),
      relationship: z.string().nullable(),
      invitationId: z.uuid().nullable(),
      outcome: z.enum(['invited', 'already_invited', 'already_member']),
    }),
  ),
  giftAddress: z.record(z.string(), z.unknown()).nullable(),
  campaign: z.object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    storytellerName: z.string(),
    storytellerEmail: z.string().nullable(),
    storytellerPhone: z.string().nullable(),
    relationship: z.string(),
    status: z.string(),
  }),
  completedAt: z.string().nullable(),
  updatedAt: z.string(),
});

const campaignView = z.object({ id: z.uuid(), title: z.string(), description: z.string(), recordingCount: z.number().int(), conversationCount: z.number().int(), createdAt: z.string() });

const params = z.object({ campaignId: z.uuid() });
const anyBody = z.record(z.string(), z.unknown());
const security = [{ bearerAuth: [] }];
const tags = ['campaigns'];
const e = <const C extends readonly number[]>(codes: C) => errorResponses(coreErrorSchema, codes);

export const createFlowRoutes =
  ({ flows }: { flows: CreateFlowService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/start',
      {
        schema: {
          operationId: 'startCampaignCreateFlow',
          summary: 'Start setting up a campaign (creates it, counting against the campaigns allowance); an open flow is resumed instead (200)',
          tags,
          security,
          body: z.object({ title: z.string().trim().min(1).max(200).optional(), description: z.string().trim().max(5000).optional() }).default({}),
          response: { 200: z.object({ flow: flowState, resumed: z.literal(true) }), 201: z.object({ flow: flowState, resumed: z.literal(false) }), ...e([400, 401, 403, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => {
        const result = await flows.start(callerOf(req).userId, req.body ?? {});
        return result.resumed ? reply.status(200).send({ flow: result.flow, resumed: true as const }) : reply.status(201).send({ flow: result.flow, resumed: false as const });
      },
    );

    app.get(
      '/:campaignId/resume',
      {
        schema: {
          operationId: 'resumeCampaignCreateFlow',
          summary: 'The saved state of a create flow (any device of the creator)',
          tags,
          security,
          params,
          response: { 200: flowState, ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => flows.resume(callerOf(req).userId, req.params.campaignId),
    );

    // Registered before /step/:stepNumber in spirit; find-my-way prefers the static segment anyway.
    app.put(
      '/:campaignId/step/familyMembers',
      {
        schema: {
          operationId: 'setCampaignCreateFlowFamilyMembers',
          summary: "Invite relatives to the owner's family group: {members: [{email, name?, role, relationship?}]}",
          tags,
          security,
          params,
          body: anyBody,
          response: { 200: flowState, ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => flows.familyMembers(callerOf(req).userId, req.params.campaignId, req.body),
    );

    app.put(
      '/:campaignId/step/:stepNumber',
      {
        schema: {
          operationId: 'setCampaignCreateFlowStep',
          summary:
            'Save one step: 1 {storytellerName, storytellerEmail?, storytellerPhone?, relationship}; 2 {title, description?}; 3 {prompts: [string]} (prompts-per-campaign allowance)',
          tags,
          security,
          params: params.extend({ stepNumber: z.string().max(20) }),
          body: anyBody,
          response: { 200: flowState, ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => flows.step(callerOf(req).userId, req.params.campaignId, req.params.stepNumber, req.body),
    );

    app.put(
      '/:campaignId/gift-address',
      {
        schema: {
          operationId: 'setCampaignCreateFlowGiftAddress',
          summary: 'Postal address for a gift: {recipientName, line1, line2?, city, region?, postalCode, country (ISO alpha-2), phone?}',
          tags,
          security,
          params,
          body: anyBody,
          response: { 200: flowState, ...e([400, 401, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => flows.giftAddress(callerOf(req).userId, req.params.campaignId, req.body),
    );

    app.post(
      '/:campaignId/complete',
      {
        schema: {
          operationId: 'completeCampaignCreateFlow',
          summary: 'Finish setting up the campaign (needs step 1)',
          tags,
          security,
          params,
          response: { 200: z.object({ campaign: campaignView, flow: flowState }), ...e([400, 401, 404, 409, 429] as const) },
        },
      },
      async (req) => flows.complete(callerOf(req).userId, req.params.campaignId),
    );
  };
