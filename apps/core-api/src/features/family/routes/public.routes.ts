// Before sign-in: the invitation preview, in the public scope (no auth hook). Rate-limited per address,
// since it needs no token of the caller.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RateLimitHandle } from '@story/http';
import type { InvitationsService } from '../invitations.service';
import { invitationPreview } from './invitations.schemas';
import { e, tags, token } from './shared.schemas';

export const familyPublicRoutes =
  ({ invitations, rateLimit }: { invitations: InvitationsService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/family/invitations/:token/public',
      {
        config: { rateLimit: rateLimit.route('core.invitation-preview') },
        schema: {
          operationId: 'previewFamilyInvitation',
          summary: 'What an invitation is for, before signing in (no ids; the address masked)',
          tags,
          params: z.object({ token }),
          response: { 200: invitationPreview, ...e([400, 404, 429] as const) },
        },
      },
      async (req) => invitations.preview(req.params.token),
    );
  };
