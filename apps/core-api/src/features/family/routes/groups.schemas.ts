// Schemas of the family group routes.
import { z } from 'zod';

export const groupView = z.object({ id: z.uuid(), name: z.string(), description: z.string().nullable(), member_count: z.number().int(), role: z.string() });
export const groupDetail = groupView.extend({ settings: z.record(z.string(), z.unknown()), createdBy: z.uuid(), createdAt: z.string() });

export const createGroupBody = z.object({ name: z.string().trim().min(1).max(120), description: z.string().trim().max(2000).optional(), settings: z.record(z.string(), z.unknown()).default({}) });

export const leaderboardEntry = z.object({
  memberId: z.uuid(),
  userId: z.uuid(),
  displayName: z.string(),
  stories: z.number().int(),
  recordings: z.number().int(),
  memories: z.number().int(),
  points: z.number().int(),
  rank: z.number().int(),
});
