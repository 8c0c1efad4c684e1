// Family routes (spec 000 Endpoints: Family): /api/family/* and the extended management under
// /api/families/[familyId]/*. All authenticated except the invitation preview (familyPublicRoutes).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { INVITATION_ROLES, INVITATION_STATUSES } from '@story/db';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { ASSIGNABLE_MEMBER_ROLES, MEMBER_STATUS_FILTERS, RELATIONSHIP_TYPES } from './family.constants';
import type { FamilyService } from './family.service';
import type { InvitationsService } from './invitations.service';

const security = [{ bearerAuth: [] }];
const tags = ['family'];

const relationship = z.enum(RELATIONSHIP_TYPES);
/** The token from an invite URL: 32 random bytes, base64url. */
const token = z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/, 'must be the token from the invitation link');

const groupView = z.object({ id: z.uuid(), name: z.string(), description: z.string().nullable(), member_count: z.number().int(), role: z.string() });
const groupDetail = groupView.extend({ settings: z.record(z.string(), z.unknown()), createdBy: z.uuid(), createdAt: z.string() });

const memberView = z.object({
  id: z.uuid(),
  userId: z.uuid().nullable(),
  displayName: z.string(),
  email: z.string().nullable(),
  role: z.string(),
  relationship: z.string().nullable(),
  status: z.string(),
  avatarUrl: z.string().nullable(),
  isPlaceholder: z.boolean(),
  joinedAt: z.string(),
  removedAt: z.string().nullable(),
  mergedIntoId: z.uuid().nullable(),
});

const invitationView = z.object({ id: z.uuid(), email: z.string(), role: z.enum(INVITATION_ROLES), status: z.enum(INVITATION_STATUSES), expiresAt: z.string(), inviteUrl: z.string() });
const invitationListItem = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(INVITATION_ROLES),
  status: z.enum(INVITATION_STATUSES),
  relationship: z.string().nullable(),
  message: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
  resentCount: z.number().int(),
  lastSentAt: z.string().nullable(),
});
const familySummary = z.object({ id: z.uuid(), name: z.string(), description: z.string().nullable(), memberCount: z.number().int() });

const relationshipView = z.object({ id: z.uuid(), fromMemberId: z.uuid(), toMemberId: z.uuid(), relationshipType: z.string(), createdBy: z.uuid().nullable(), createdAt: z.string() });

const memoryView = z.object({
  id: z.uuid(),
  familyGroupId: z.uuid(),
  createdBy: z.uuid().nullable(),
  authorName: z.string().nullable(),
  title: z.string(),
  content: z.string().nullable(),
  memoryDate: z.string().nullable(),
  tags: z.array(z.string()),
  media: z.array(z.object({ imageId: z.uuid().nullable(), mimeType: z.string(), caption: z.string().nullable() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const memoryMedia = z.array(z.object({ imageId: z.uuid(), caption: z.string().trim().max(500).optional() })).max(10);
const memoryFields = {
  title: z.string().trim().min(1).max(200),
  content: z.string().max(20000).nullable(),
  memoryDate: z.iso.date().nullable(),
  tags: z.array(z.string().trim().min(1).max(40)).max(20),
  media: memoryMedia,
};

const inviteFields = {
  email: z.email().max(254),
  role: z.enum(INVITATION_ROLES),
  relationship: relationship.optional(),
  message: z.string().trim().max(1000).optional(),
};

const familyParams = z.object({ familyId: z.uuid() });
const memberParams = familyParams.extend({ memberId: z.uuid() });
const invitationParams = familyParams.extend({ invitationId: z.uuid() });
const memoryParams = familyParams.extend({ memoryId: z.uuid() });

const e = <const C extends readonly number[]>(codes: C) => errorResponses(coreErrorSchema, codes);

export const familyRoutes =
  ({ family, invitations }: { family: FamilyService; invitations: InvitationsService }): FastifyPluginAsyncZod =>
  async (app) => {
    // ---- groups ----
    app.get(
      '/api/family/groups',
      {
        schema: {
          operationId: 'listFamilyGroups',
          summary: 'Family groups the caller is an active member of, with member_count and the caller\'s role',
          tags,
          security,
          response: { 200: z.object({ success: z.literal(true), data: z.array(groupView) }), ...e([401, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, data: await family.listGroups(callerOf(req).userId) }),
    );

    app.post(
      '/api/family/groups',
      {
        schema: {
          operationId: 'createFamilyGroup',
          summary: 'Create a family group; the caller becomes its owner',
          tags,
          security,
          body: z.object({ name: z.string().trim().min(1).max(120), description: z.string().trim().max(2000).optional(), settings: z.record(z.string(), z.unknown()).default({}) }),
          response: { 201: z.object({ success: z.literal(true), data: groupDetail }), ...e([400, 401, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ success: true as const, data: await family.createGroup(callerOf(req).userId, req.body) }),
    );

    app.get(
      '/api/family/groups/:familyId',
      {
        schema: {
          operationId: 'getFamilyGroup',
          summary: 'One family group the caller belongs to',
          tags,
          security,
          params: familyParams,
          response: { 200: z.object({ success: z.literal(true), data: groupDetail }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, data: await family.getGroup(callerOf(req).userId, req.params.familyId) }),
    );

    // ---- invitations (CONTRACTS §6) ----
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
          summary: 'Accept an invitation (signed in with the invited address)',
          tags,
          security,
          body: z.object({ token }),
          response: {
            200: z.object({ success: z.literal(true), familyGroupId: z.uuid(), member: z.object({ id: z.uuid(), role: z.string() }), welcomeUrl: z.string() }),
            ...e([400, 401, 403, 404, 409, 410, 413, 415, 429] as const),
          },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        return invitations.accept(caller.userId, caller.email, req.body.token);
      },
    );

    app.post(
      '/api/family/invitations/reject',
      {
        schema: {
          operationId: 'rejectFamilyInvitation',
          summary: 'Decline an invitation (signed in with the invited address)',
          tags,
          security,
          body: z.object({ token }),
          response: { 200: z.object({ success: z.literal(true), status: z.literal('rejected') }), ...e([400, 401, 403, 404, 409, 410, 413, 415, 429] as const) },
        },
      },
      async (req) => invitations.reject(callerOf(req).email, req.body.token),
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
          response: {
            200: z.object({
              invitation: z.object({
                id: z.uuid(),
                email: z.string(),
                role: z.enum(INVITATION_ROLES),
                status: z.enum(INVITATION_STATUSES),
                relationship: z.string().nullable(),
                message: z.string().nullable(),
                expiresAt: z.string(),
                family: familySummary,
                invitedBy: z.object({ name: z.string().nullable() }),
              }),
              emailMatches: z.boolean(),
              canAccept: z.boolean(),
            }),
            ...e([400, 401, 404, 429] as const),
          },
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
          response: {
            200: z.object({ family: familySummary, role: z.string(), invitedBy: z.object({ name: z.string().nullable() }), members: z.array(z.object({ name: z.string(), role: z.string() })) }),
            ...e([400, 401, 404, 429] as const),
          },
        },
      },
      async (req) => invitations.welcome(callerOf(req).userId, req.params.token),
    );

    // ---- members across groups, leaderboard ----
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

    app.get(
      '/api/family/:familyId/leaderboard',
      {
        schema: {
          operationId: 'getFamilyLeaderboard',
          summary: 'Contributions per member, counted from stories, recordings and memories',
          tags,
          security,
          params: familyParams,
          response: {
            200: z.object({
              success: z.literal(true),
              data: z.array(
                z.object({
                  memberId: z.uuid(),
                  userId: z.uuid(),
                  displayName: z.string(),
                  stories: z.number().int(),
                  recordings: z.number().int(),
                  memories: z.number().int(),
                  points: z.number().int(),
                  rank: z.number().int(),
                }),
              ),
            }),
            ...e([400, 401, 404, 429] as const),
          },
        },
      },
      async (req) => ({ success: true as const, data: await family.leaderboard(callerOf(req).userId, req.params.familyId) }),
    );

    // ---- /api/families/[familyId]/members ----
    app.get(
      '/api/families/:familyId/members',
      {
        schema: {
          operationId: 'listFamilyMembers',
          summary: 'Members of one family group (status active by default)',
          tags,
          security,
          params: familyParams,
          querystring: z.object({ status: z.enum(MEMBER_STATUS_FILTERS).default('active') }),
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
          body: z.object({ displayName: z.string().trim().min(1).max(120), relationship: relationship.optional(), email: z.email().max(254).optional() }),
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
          body: z.object({ role: z.enum(ASSIGNABLE_MEMBER_ROLES).optional(), relationship: relationship.nullable().optional(), displayName: z.string().trim().min(1).max(120).nullable().optional() }),
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

    // ---- /api/families/[familyId]/invitations ----
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

    // ---- relationships ----
    app.get(
      '/api/families/:familyId/relationships',
      {
        schema: {
          operationId: 'listFamilyRelationships',
          summary: 'Relationships between members, and the closed list of relationship types',
          tags,
          security,
          params: familyParams,
          response: { 200: z.object({ relationships: z.array(relationshipView), types: z.array(z.string()) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ relationships: await family.listRelationships(callerOf(req).userId, req.params.familyId), types: [...RELATIONSHIP_TYPES] }),
    );

    app.post(
      '/api/families/:familyId/relationships',
      {
        schema: {
          operationId: 'addFamilyRelationship',
          summary: 'Record that one member is the <relationshipType> of another (contributors and owner)',
          tags,
          security,
          params: familyParams,
          body: z.object({ fromMemberId: z.uuid(), toMemberId: z.uuid(), relationshipType: relationship }),
          response: { 201: z.object({ relationship: relationshipView }), ...e([400, 401, 403, 404, 409, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ relationship: await family.addRelationship(callerOf(req).userId, req.params.familyId, req.body) }),
    );

    // ---- memories ----
    app.get(
      '/api/families/:familyId/memories',
      {
        schema: {
          operationId: 'listFamilyMemories',
          summary: "The group's shared memories, newest first",
          tags,
          security,
          params: familyParams,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(30), offset: z.coerce.number().int().min(0).max(100000).default(0) }),
          response: { 200: z.object({ memories: z.array(memoryView) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ memories: await family.listMemories(callerOf(req).userId, req.params.familyId, req.query.limit, req.query.offset) }),
    );

    app.post(
      '/api/families/:familyId/memories',
      {
        schema: {
          operationId: 'addFamilyMemory',
          summary: 'Add a shared memory, optionally with your own photos (contributors and owner)',
          tags,
          security,
          params: familyParams,
          body: z.object({
            title: memoryFields.title,
            content: memoryFields.content.optional(),
            memoryDate: memoryFields.memoryDate.optional(),
            tags: memoryFields.tags.optional(),
            media: memoryFields.media.optional(),
          }),
          response: { 201: z.object({ memory: memoryView }), ...e([400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send({ memory: await family.addMemory(callerOf(req).userId, req.params.familyId, req.body) }),
    );

    app.get(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: { operationId: 'getFamilyMemory', summary: 'One shared memory', tags, security, params: memoryParams, response: { 200: z.object({ memory: memoryView }), ...e([400, 401, 404, 429] as const) } },
      },
      async (req) => ({ memory: await family.getMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId) }),
    );

    app.put(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: {
          operationId: 'updateFamilyMemory',
          summary: 'Edit a shared memory (its author, or the owner)',
          tags,
          security,
          params: memoryParams,
          body: z
            .object({
              title: memoryFields.title.optional(),
              content: memoryFields.content.optional(),
              memoryDate: memoryFields.memoryDate.optional(),
              tags: memoryFields.tags.optional(),
              media: memoryFields.media.optional(),
            })
            .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' }),
          response: { 200: z.object({ memory: memoryView }), ...e([400, 401, 403, 404, 413, 415, 429] as const) },
        },
      },
      async (req) => ({ memory: await family.updateMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId, req.body) }),
    );

    app.delete(
      '/api/families/:familyId/memories/:memoryId',
      {
        schema: {
          operationId: 'deleteFamilyMemory',
          summary: 'Delete a shared memory (its author, or the owner)',
          tags,
          security,
          params: memoryParams,
          response: { 200: z.object({ success: z.literal(true), id: z.uuid() }), ...e([400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => family.deleteMemory(callerOf(req).userId, req.params.familyId, req.params.memoryId),
    );

    // ---- media, story prompts ----
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
          response: {
            200: z.object({
              media: z.array(
                z.object({
                  id: z.string(),
                  source: z.string(),
                  memoryId: z.uuid().nullable(),
                  imageId: z.uuid().nullable(),
                  mimeType: z.string(),
                  title: z.string().nullable(),
                  caption: z.string().nullable(),
                  addedBy: z.uuid().nullable(),
                  createdAt: z.string(),
                }),
              ),
            }),
            ...e([400, 401, 404, 429] as const),
          },
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
          response: {
            200: z.object({
              prompts: z.array(z.object({ id: z.string(), prompt: z.string(), category: z.string().nullable(), relationshipType: z.string().nullable(), source: z.enum(['library', 'starter']) })),
            }),
            ...e([400, 401, 404, 429] as const),
          },
        },
      },
      async (req) => family.storyPrompts(callerOf(req).userId, req.params.familyId, req.query.limit),
    );
  };

/** Before sign-in: the invitation preview (rate-limited per address, since it needs no token of the caller). */
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
          response: {
            200: z.object({
              invitation: z.object({
                status: z.enum(INVITATION_STATUSES),
                role: z.enum(INVITATION_ROLES),
                expiresAt: z.string(),
                emailHint: z.string(),
                familyName: z.string(),
                inviterName: z.string().nullable(),
                message: z.string().nullable(),
              }),
            }),
            ...e([400, 404, 429] as const),
          },
        },
      },
      async (req) => invitations.preview(req.params.token),
    );
  };
