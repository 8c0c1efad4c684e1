// Schemas of the shared-memory routes.
import { z } from 'zod';
import { familyParams } from './shared.schemas';

export const memoryView = z.object({
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

export const memoryParams = familyParams.extend({ memoryId: z.uuid() });

export const memoryPage = z.object({ limit: z.coerce.number().int().min(1).max(100).default(30), offset: z.coerce.number().int().min(0).max(100000).default(0) });

export const addMemoryBody = z.object({
  title: memoryFields.title,
  content: memoryFields.content.optional(),
  memoryDate: memoryFields.memoryDate.optional(),
  tags: memoryFields.tags.optional(),
  media: memoryFields.media.optional(),
});

export const updateMemoryBody = z
  .object({
    title: memoryFields.title.optional(),
    content: memoryFields.content.optional(),
    memoryDate: memoryFields.memoryDate.optional(),
    tags: memoryFields.tags.optional(),
    media: memoryFields.media.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' });
