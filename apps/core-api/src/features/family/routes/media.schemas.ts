// Schemas of the media wall and story prompt routes.
import { z } from 'zod';

export const mediaItem = z.object({
  id: z.string(),
  source: z.string(),
  memoryId: z.uuid().nullable(),
  imageId: z.uuid().nullable(),
  mimeType: z.string(),
  title: z.string().nullable(),
  caption: z.string().nullable(),
  addedBy: z.uuid().nullable(),
  createdAt: z.string(),
});

export const storyPrompt = z.object({ id: z.string(), prompt: z.string(), category: z.string().nullable(), relationshipType: z.string().nullable(), source: z.enum(['library', 'starter']) });
