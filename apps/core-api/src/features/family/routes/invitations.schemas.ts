// Schemas of the invitation routes (CONTRACTS §6), the public preview's included.
import { z } from 'zod';
import { INVITATION_ROLES, INVITATION_STATUSES } from '@story/db';
import { familyParams, relationship } from './shared.schemas';

export const invitationView = z.object({ id: z.uuid(), email: z.string(), role: z.enum(INVITATION_ROLES), status: z.enum(INVITATION_STATUSES), expiresAt: z.string(), inviteUrl: z.string() });

/** What the owner's list and the invitee's details both show of an invitation. */
const invitationFields = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(INVITATION_ROLES),
  status: z.enum(INVITATION_STATUSES),
  relationship: z.string().nullable(),
  message: z.string().nullable(),
  expiresAt: z.string(),
});

export const invitationListItem = invitationFields.extend({ createdAt: z.string(), resentCount: z.number().int(), lastSentAt: z.string().nullable() });

export const familySummary = z.object({ id: z.uuid(), name: z.string(), description: z.string().nullable(), memberCount: z.number().int() });

export const inviteFields = {
  email: z.email().max(254),
  role: z.enum(INVITATION_ROLES),
  relationship: relationship.optional(),
  message: z.string().trim().max(1000).optional(),
};

export const invitationParams = familyParams.extend({ invitationId: z.uuid() });

export const acceptAnswer = z.object({ success: z.literal(true), familyGroupId: z.uuid(), member: z.object({ id: z.uuid(), role: z.string() }), welcomeUrl: z.string() });

export const invitationDetails = z.object({
  invitation: invitationFields.extend({ family: familySummary, invitedBy: z.object({ name: z.string().nullable() }) }),
  emailMatches: z.boolean(),
  canAccept: z.boolean(),
});

export const welcomeView = z.object({ family: familySummary, role: z.string(), invitedBy: z.object({ name: z.string().nullable() }), members: z.array(z.object({ name: z.string(), role: z.string() })) });

export const invitationPreview = z.object({
  invitation: z.object({
    status: z.enum(INVITATION_STATUSES),
    role: z.enum(INVITATION_ROLES),
    expiresAt: z.string(),
    emailHint: z.string(),
    familyName: z.string(),
    inviterName: z.string().nullable(),
    message: z.string().nullable(),
  }),
});
