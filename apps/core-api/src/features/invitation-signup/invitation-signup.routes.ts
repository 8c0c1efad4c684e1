// POST /api/auth/signup-with-invitation (spec 000 Auth), public and limited like signup (5 per minute).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { authResult, emailField, passwordField } from '../auth/auth.schemas';
import type { InvitationSignup } from './invitation-signup.service';

const invitationToken = z.string().trim().min(16).max(256).regex(/^[A-Za-z0-9_-]+$/, 'must be the token from the invitation link');

const body = z.strictObject({
  email: emailField,
  password: passwordField,
  fullName: z.string().trim().min(1).max(200).optional(),
  token: invitationToken.optional().meta({ description: 'the invitation token (last path segment of inviteUrl)' }),
  invitationToken: invitationToken.optional().meta({ description: 'the same token under a longer name; send one of the two' }),
});

export const invitationSignupRoutes =
  ({ invitationSignup, rateLimit }: { invitationSignup: InvitationSignup; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/auth/signup-with-invitation',
      {
        config: { rateLimit: rateLimit.route('core.auth') },
        schema: {
          operationId: 'signupWithInvitation',
          summary: 'Create an account and accept a family invitation in one step (one transaction)',
          description:
            'Accepting an invitation needs a verified email address (CONTRACTS §7) and a new account\'s is not verified yet, so this ' +
            'answers 403 with a sentence saying so and creates nothing: sign up with POST /api/auth/signup, confirm the address ' +
            'with the emailed link, then accept with POST /api/family/invitations/accept. A taken email answers 409.',
          tags: ['auth'],
          body,
          response: {
            201: authResult.extend({
              invitation: z.object({ familyGroupId: z.uuid(), member: z.object({ id: z.uuid(), role: z.string() }), welcomeUrl: z.string() }),
            }),
            ...errorResponses(coreErrorSchema, [400, 403, 404, 409, 410, 413, 415, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const { token, invitationToken, ...account } = req.body;
        if (token && invitationToken && token !== invitationToken) throw badRequest('Send the invitation token once', { field: 'invitationToken' });
        const chosen = token ?? invitationToken;
        if (!chosen) throw badRequest('Invalid token: is required', { field: 'token' });
        const meta = { userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined, ip: req.ip };
        return reply.status(201).send(await invitationSignup.signup({ ...account, token: chosen }, meta));
      },
    );
  };
