// zod schemas of the stories API (spec 000 Stories, Limits). Exported so other feature areas that
// answer with a story (conversion) can declare the same shape.
import { z } from 'zod';
import { badRequest } from '@story/http';
import { MAX_CONTENT, MAX_TITLE } from './story-content';
import { headerFooterSchema, typographySchema } from './story-layout';

// Field names as spec 000 writes them (CONTRACTS §8): campaignId, title, type, content, metadata, book_id,
// ai_enhanced, source_recording_ids, source_conversation_ids. The rest are extras.
export const storyView = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  authorId: z.uuid(),
  campaignId: z.uuid().nullable(),
  title: z.string(),
  type: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  book_id: z.uuid().nullable(),
  ai_enhanced: z.boolean(),
  source_recording_ids: z.array(z.uuid()),
  source_conversation_ids: z.array(z.uuid()),
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

// Bodies take the spec's names. The camelCase names this API took before are still read (deprecated), so
// older clients keep working; sending both spellings of one field is refused.
const linkFields = {
  ai_enhanced: z.boolean().optional(),
  source_recording_ids: idList.optional(),
  source_conversation_ids: idList.optional(),
  aiEnhanced: z.boolean().optional().meta({ deprecated: true, description: 'old spelling of ai_enhanced' }),
  sourceRecordingIds: idList.optional().meta({ deprecated: true, description: 'old spelling of source_recording_ids' }),
  sourceConversationIds: idList.optional().meta({ deprecated: true, description: 'old spelling of source_conversation_ids' }),
};

export const createStoryBody = z.strictObject({
  title,
  campaignId: z.uuid().optional(),
  type: type.optional(),
  content: content.optional(),
  metadata: metadata.optional(),
  book_id: z.uuid().optional(),
  bookId: z.uuid().optional().meta({ deprecated: true, description: 'old spelling of book_id' }),
  ...linkFields,
});

export const updateStoryBody = z.strictObject({
  title: title.optional(),
  type: type.optional(),
  content: content.optional(),
  metadata: metadata.optional(),
  book_id: z.uuid().nullable().optional(),
  bookId: z.uuid().nullable().optional().meta({ deprecated: true, description: 'old spelling of book_id' }),
  ...linkFields,
});

type LinkBody = {
  book_id?: string | null;
  bookId?: string | null;
  ai_enhanced?: boolean;
  aiEnhanced?: boolean;
  source_recording_ids?: string[];
  sourceRecordingIds?: string[];
  source_conversation_ids?: string[];
  sourceConversationIds?: string[];
};

/** One value per field from either spelling; both spellings of one field is a 400 naming the spec's name. */
export function storyLinks(body: LinkBody) {
  const pick = <T>(field: string, spec: T | undefined, legacy: T | undefined): T | undefined => {
    if (spec !== undefined && legacy !== undefined) throw badRequest(`Invalid ${field}: send ${field} only, not its camelCase spelling too`, { field });
    return spec !== undefined ? spec : legacy;
  };
  return {
    bookId: pick('book_id', body.book_id, body.bookId),
    aiEnhanced: pick('ai_enhanced', body.ai_enhanced, body.aiEnhanced),
    sourceRecordingIds: pick('source_recording_ids', body.source_recording_ids, body.sourceRecordingIds),
    sourceConversationIds: pick('source_conversation_ids', body.source_conversation_ids, body.sourceConversationIds),
  };
}

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
