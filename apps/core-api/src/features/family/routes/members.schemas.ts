// Schemas of the family member routes.
import { z } from 'zod';
import { ASSIGNABLE_MEMBER_ROLES, MEMBER_STATUS_FILTERS } from '../family.constants';
import { familyParams, relationship } from './shared.schemas';

export const memberView = z.object({
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

export const memberParams = familyParams.extend({ memberId: z.uuid() });

export const memberStatusQuery = z.object({ status: z.enum(MEMBER_STATUS_FILTERS).default('active') });

export const placeholderBody = z.object({ displayName: z.string().trim().min(1).max(120), relationship: relationship.optional(), email: z.email().max(254).optional() });

export const updateMemberBody = z.object({
  role: z.enum(ASSIGNABLE_MEMBER_ROLES).optional(),
  relationship: relationship.nullable().optional(),
  displayName: z.string().trim().min(1).max(120).nullable().optional(),
});
