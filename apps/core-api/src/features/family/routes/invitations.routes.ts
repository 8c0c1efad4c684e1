// Invitations (CONTRACTS §6): inviting, answering and the welcome page under /api/family/*, and the
// owner's management under /api/families/[familyId]/invitations. The preview before sign-in is in
// public.routes.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { INVITATION_STATUSES } from '@story/db';
import type { InvitationsService } from '../invitations.service';
import { acceptAnswer, invitationDetails, invitationListItem, invitationParams, invitationView, inviteFields, welcomeView } from './invitations.schemas';
import { e, familyParams, security, tags, token } from './shared.schemas';

/** Inviting, answering and the welcome page: /api/family/invitations* and /api/family/welcome. */
export const invitationsRoutes =
  ({ invitations }: { invitations: InvitationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/family/invitations',
      {
        schema: {
          operationId: 'createFamilyInvitation',
          summary: 'Invite someone to a family group by email (owner only; 5 per hour; family-members allowance of the owner\'s tier)',
          tags,
          security,
          body: z.object({ familyGroupId: z.uuid(), ...inviteFields }),
          response: { 201: z.object({ invitation: invitationView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ invitation: (await invitations.create(callerOf(req).userId, req.body)).invitation }),
    );

    app.post(
      '/api/family/invitations/accept',
      {
        schema: {
          operationId: 'acceptFamilyInvitation',
          summary: 'Accept an invitation (signed in with the invited address, verified)',
          description:
            'The account\'s address must be verified (403 with a sentence otherwise, whether or not the token exists) and equal the ' +
            'invited one (403). An unknown token answers 404, an expired one 410, one already answered 409; nothing changes then.',
          tags,
          security,
          body: z.object({ token }),
          response: { 200: acceptAnswer, ...e([400, 401, 403, 404, 409, 410, 413, 415, 429] as const) },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        return { success: true as const, ...(await invitations.accept(caller.userId, caller.email, req.body.token)) };
      },
    );

    app.post(
      '/api/family/invitations/reject',
      {
        schema: {
          operationId: 'rejectFamilyInvitation',
          summary: 'Decline an invitation (signed in with the invited address, verified)',
          tags,
          security,
          body: z.object({ token }),
          response: { 200: z.object({ success: z.literal(true), status: z.literal('rejected') }), ...e([400, 401, 403, 404, 409, 410, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await invitations.reject(callerOf(req).userId, req.body.token)) }),
    );

    app.get(
      '/api/family/invitations/:token',
      {
        schema: {
          operationId: 'getFamilyInvitation',
          summary: 'An invitation by its token, and whether the signed-in account may answer it',
          tags,
          security,
          params: z.object({ token }),
          response: { 200: invitationDetails, ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => invitations.details(callerOf(req).email, req.params.token),
    );

    app.get(
      '/api/family/welcome/:token',
      {
        schema: {
          operationId: 'getFamilyWelcome',
          summary: 'The family the caller joined with this invitation (only for the account that accepted it)',
          tags,
          security,
          params: z.object({ token }),
          response: { 200: welcomeView, ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => invitations.welcome(callerOf(req).userId, req.params.token),
    );
  };

/** The owner's management of one group's invitations: /api/families/[familyId]/invitations. */
export const groupInvitationsRoutes =
  ({ invitations }: { invitations: InvitationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/families/:familyId/invitations',
      {
        schema: {
          operationId: 'listFamilyInvitations',
          summary: "The group's invitations (owner only)",
          tags,
          security,
          params: familyParams,
          querystring: z.object({ status: z.enum(INVITATION_STATUSES).optional() }),
          response: { 200: z.object({ invitations: z.array(invitationListItem) }), ...e([400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ invitations: await invitations.list(callerOf(req).userId, req.params.familyId, req.query.status) }),
    );

    app.post(
      '/api/families/:familyId/invitations',
      {
        schema: {
          operationId: 'inviteToFamily',
          summary: 'Invite someone to this group (same rules as POST /api/family/invitations)',
          tags,
          security,
          params: familyParams,
          body: z.object(inviteFields),
          response: { 201: z.object({ invitation: invitationView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ invitation: (await invitations.create(callerOf(req).userId, { familyGroupId: req.params.familyId, ...req.body })).invitation }),
    );

    app.delete(
      '/api/families/:familyId/invitations/:invitationId',
      {
        schema: {
          operationId: 'cancelFamilyInvitation',
          summary: 'Cancel a pending invitation (owner only); its link stops working',
          tags,
          security,
          params: invitationParams,
          response: { 200: z.object({ success: z.literal(true), invitation: z.object({ id: z.uuid(), status: z.enum(INVITATION_STATUSES) }) }), ...e([400, 401, 403, 404, 409, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, invitation: await invitations.cancel(callerOf(req).userId, req.params.familyId, req.params.invitationId) }),
    );

    app.post(
      '/api/families/:familyId/invitations/:invitationId/resend',
      {
        schema: {
          operationId: 'resendFamilyInvitation',
          summary: 'Email a pending invitation again with a fresh link and a fresh 7 days (owner only)',
          tags,
          security,
          params: invitationParams,
          response: { 200: z.object({ invitation: invitationView }), ...e([400, 401, 403, 404, 409, 429] as const) },
        },
      },
      async (req) => ({ invitation: await invitations.resend(callerOf(req).userId, req.params.familyId, req.params.invitationId) }),
    );
  };
