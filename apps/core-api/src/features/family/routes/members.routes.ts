// Members: /api/family/members (across the caller's groups) and /api/families/[familyId]/members.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FamilyService } from '../family.service';
import { memberParams, memberStatusQuery, memberView, placeholderBody, updateMemberBody } from './members.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

/** Active members across the caller's groups: /api/family/members. */
export const memberDirectoryRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/family/members',
      {
        schema: {
          operationId: 'listMyFamilyMembers',
          summary: "Active members of the caller's family groups (optionally one group)",
          tags,
          security,
          querystring: z.object({ familyId: z.uuid().optional() }),
          response: { 200: z.object({ members: z.array(memberView.extend({ familyGroupId: z.uuid() })) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ members: await family.listAllMembers(callerOf(req).userId, req.query.familyId) }),
    );
  };

/** One group's members: /api/families/[familyId]/members. */
export const membersRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/families/:familyId/members',
      {
        schema: {
          operationId: 'listFamilyMembers',
          summary: 'Members of one family group (status active by default)',
          tags,
          security,
          params: familyParams,
          querystring: memberStatusQuery,
          response: { 200: z.object({ members: z.array(memberView) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ members: await family.listMembers(callerOf(req).userId, req.params.familyId, req.query.status) }),
    );

    app.post(
      '/api/families/:familyId/members',
      {
        schema: {
          operationId: 'addFamilyPlaceholderMember',
          summary: 'Add a relative without an account (merge links their account later); owner only',
          tags,
          security,
          params: familyParams,
          body: placeholderBody,
          response: { 201: z.object({ member: memberView }), ...e([400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ member: await family.addPlaceholder(callerOf(req).userId, req.params.familyId, req.body) }),
    );

    app.get(
      '/api/families/:familyId/members/:memberId',
      {
        schema: { operationId: 'getFamilyMember', summary: 'One member of the group', tags, security, params: memberParams, response: { 200: z.object({ member: memberView }), ...e([400, 401, 404, 429] as const) } },
      },
      async (req) => ({ member: await family.getMember(callerOf(req).userId, req.params.familyId, req.params.memberId) }),
    );

    app.put(
      '/api/families/:familyId/members/:memberId',
      {
        schema: {
          operationId: 'updateFamilyMember',
          summary: "Change a member's role (owner only) or name and relationship (owner, or the member themself)",
          tags,
          security,
          params: memberParams,
          body: updateMemberBody,
          response: { 200: z.object({ member: memberView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ member: await family.updateMember(callerOf(req).userId, req.params.familyId, req.params.memberId, req.body) }),
    );

    app.delete(
      '/api/families/:familyId/members/:memberId',
      {
        schema: {
          operationId: 'removeFamilyMember',
          summary: 'Remove a member (owner), or leave the group (the member themself); access ends at once',
          tags,
          security,
          params: memberParams,
          response: { 200: z.object({ success: z.literal(true), member: memberView }), ...e([400, 401, 403, 404, 409, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, member: await family.removeMember(callerOf(req).userId, req.params.familyId, req.params.memberId) }),
    );

    app.post(
      '/api/families/:familyId/members/:memberId/merge',
      {
        schema: {
          operationId: 'mergeFamilyMember',
          summary: 'Merge a placeholder member into a member with an account (owner only)',
          tags,
          security,
          params: memberParams,
          body: z.object({ intoMemberId: z.uuid() }),
          response: { 200: z.object({ member: memberView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ member: await family.mergeMember(callerOf(req).userId, req.params.familyId, req.params.memberId, req.body.intoMemberId) }),
    );
  };
