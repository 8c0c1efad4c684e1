// Schemas of the relationship routes.
import { z } from 'zod';
import { relationship } from './shared.schemas';

export const relationshipView = z.object({ id: z.uuid(), fromMemberId: z.uuid(), toMemberId: z.uuid(), relationshipType: z.string(), createdBy: z.uuid().nullable(), createdAt: z.string() });

export const addRelationshipBody = z.object({ fromMemberId: z.uuid(), toMemberId: z.uuid(), relationshipType: relationship });
