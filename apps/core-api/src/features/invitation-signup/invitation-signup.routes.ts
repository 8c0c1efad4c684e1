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
          summary: 'Create an account for an invited address; the invitation is accepted when the account verifies it',
          description:
            'The email must be the invited address. Accepting needs a verified address (CONTRACTS §7), so the answer carries the ' +
            'invitation with status awaiting_verification: it is accepted in the transaction that verifies the address, when the ' +
            'emailed verification link is opened with this account signed in (POST /api/auth/verify-email with its Bearer token). ' +
            'An unknown token answers 404, an expired one 410, one already answered 409, an email other than the invited one 403, ' +
            'a taken email 409; no account is created then.',
          tags: ['auth'],
          body,
          response: {
            201: authResult.extend({
              invitation: z.object({
                id: z.uuid(),
                familyGroupId: z.uuid(),
                role: z.string(),
                status: z.literal('awaiting_verification'),
                expiresAt: z.string(),
              }),
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
