// zod schemas of the stories API (spec 000 Stories, Limits). Exported so other feature areas that
// answer with a story (conversion) can declare the same shape.
import { z } from 'zod';
import { MAX_CONTENT, MAX_TITLE } from './story-content';
import { headerFooterSchema, typographySchema } from './story-layout';

export const storyView = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  authorId: z.uuid(),
  campaignId: z.uuid().nullable(),
  title: z.string(),
  type: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  bookId: z.uuid().nullable(),
  aiEnhanced: z.boolean(),
  sourceRecordingIds: z.array(z.uuid()),
  sourceConversationIds: z.array(z.uuid()),
  wordCount: z.number().int(),
  responseType: z.string().nullable(),
  /** For converted stories: where each paragraph came from (source span, seconds, faithfulness). Single reads only. */
  provenance: z.record(z.string(), z.unknown()).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const MAX_METADATA_JSON = 20000;
const metadata = z
  .record(z.string(), z.unknown())
  .refine((m) => JSON.stringify(m).length <= MAX_METADATA_JSON, { message: `at most ${MAX_METADATA_JSON} characters as JSON` });
const title = z.string().trim().min(1, 'is required').max(MAX_TITLE, `at most ${MAX_TITLE} characters`);
const content = z.string().max(MAX_CONTENT, `at most ${MAX_CONTENT} characters`);
const type = z.string().trim().min(1).max(50);
const idList = z.array(z.uuid()).max(100);

export const createStoryBody = z.strictObject({
  title,
  campaignId: z.uuid().optional(),
  type: type.optional(),
  content: content.optional(),
  metadata: metadata.optional(),
  bookId: z.uuid().optional(),
  aiEnhanced: z.boolean().optional(),
  sourceRecordingIds: idList.optional(),
  sourceConversationIds: idList.optional(),
});

export const updateStoryBody = z.strictObject({
  title: title.optional(),
  type: type.optional(),
  content: content.optional(),
  metadata: metadata.optional(),
  bookId: z.uuid().nullable().optional(),
  aiEnhanced: z.boolean().optional(),
  sourceRecordingIds: idList.optional(),
  sourceConversationIds: idList.optional(),
});

export const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
  /** Offset paging (0-based) for clients that number pages; the cursor is preferred. */
  page: z.coerce.number().int().min(0).max(10000).optional(),
});

export const storyList = z.object({ stories: z.array(storyView), nextCursor: z.string().nullable(), hasMore: z.boolean() });

export const storyParams = z.object({ storyId: z.uuid() });
export const shareParams = z.object({ storyId: z.uuid(), shareId: z.string().min(16).max(64).regex(/^[A-Za-z0-9_-]+$/) });

// No body at all is the common case (a link without expiry): Fastify hands that over as null.
export const shareBody = z.strictObject({ expiresInDays: z.number().int().min(1).max(365).optional() }).nullish();
export const shareView = z.object({
  id: z.uuid(),
  shareId: z.string(),
  storyId: z.uuid(),
  url: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  viewCount: z.number().int(),
  createdAt: z.string(),
});
export const sharedStoryView = z.object({
  story: z.object({ id: z.uuid(), title: z.string(), content: z.string(), wordCount: z.number().int(), createdAt: z.string(), typography: typographySchema }),
  share: z.object({ expiresAt: z.string().nullable(), viewCount: z.number().int() }),
});

export const typographyBody = z.strictObject(typographySchema.shape);
export const headerFooterBody = z.strictObject(headerFooterSchema.partial().shape);
export { headerFooterSchema, typographySchema };
