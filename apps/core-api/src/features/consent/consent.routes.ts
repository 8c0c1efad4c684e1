// /api/consent (spec 000 User, privacy, consent; CONTRACTS §9), authenticated scope: the caller's own.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import { ipPrefix } from '../auth/auth.service';
import type { ConsentService } from './consent.service';

const tags = ['consent'];
const security = [{ bearerAuth: [] }];
const consents = z.object({ marketing: z.boolean(), analytics: z.boolean(), thirdParty: z.boolean() });
const statusAnswer = z.object({ consents, lastUpdated: z.string().nullable() });

export const consentRoutes =
  ({ consent }: { consent: ConsentService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/status',
      {
        schema: {
          operationId: 'getConsentStatus',
          summary: "The caller's current consents; all false and lastUpdated null before any choice",
          tags,
          security,
          response: { 200: statusAnswer, ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => consent.status(callerOf(req).userId),
    );

    app.post(
      '/update',
      {
        schema: {
          operationId: 'updateConsent',
          summary: 'Change any of marketing, analytics, thirdParty (the others keep their value); every change is kept in the history',
          tags,
          security,
          body: z.strictObject({
            marketing: z.boolean().optional(),
            analytics: z.boolean().optional(),
            thirdParty: z.boolean().optional(),
            source: z.enum(['signup', 'banner', 'settings', 'onboarding']).optional().meta({ description: 'where the choice was made (default settings)' }),
          }),
          response: {
            200: statusAnswer.extend({ success: z.literal(true), changed: z.boolean() }),
            ...errorResponses(coreErrorSchema, [400, 401, 413, 415, 429] as const),
          },
        },
      },
      async (req) => consent.update(callerOf(req).userId, req.body, ipPrefix(req.ip)),
    );

    app.get(
      '/history',
      {
        schema: {
          operationId: 'getConsentHistory',
          summary: "The caller's consent changes, newest first",
          tags,
          security,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
          response: {
            200: z.object({ history: z.array(consents.extend({ source: z.string().nullable(), changedAt: z.string() })) }),
            ...errorResponses(coreErrorSchema, [400, 401, 429] as const),
          },
        },
      },
      async (req) => consent.history(callerOf(req).userId, req.query.limit),
    );
  };
