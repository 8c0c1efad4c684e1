// zod schemas of the books API (spec 000 Books). Field names are the spec's (snake_case).
import { z } from 'zod';
import { BOOK_STATUSES, TRIM_SIZES } from '@story/db';

export const chapterSummary = z.object({ id: z.uuid(), chapter_number: z.number().int(), title: z.string(), word_count: z.number().int(), status: z.string() });

export const bookView = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  title: z.string(),
  subtitle: z.string().nullable(),
  author_name: z.string().nullable(),
  book_type: z.string(),
  status: z.string(),
  story_ids: z.array(z.uuid()),
  word_count: z.number().int(),
  chapters: z.array(chapterSummary),
  campaign_id: z.uuid().nullable(),
  family_group_id: z.uuid().nullable(),
  template_id: z.string().nullable(),
  cover_template_id: z.string().nullable(),
  interior_template_id: z.string().nullable(),
  trim_size: z.string(),
  keywords: z.array(z.string()),
  categories: z.array(z.string()),
  language: z.string(),
  kdp_enrolled: z.boolean(),
  kdp_select: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A book in GET /api/books: every Book field but the chapters array, with their count (the book route has them). */
/** A book in GET /api/books: every Book field of spec 000, chapters (metadata, never text) included (CONTRACTS §8). */
export const bookSummary = bookView.extend({ chapter_count: z.number().int() });

const text200 = z.string().trim().min(1, 'is required').max(200, 'at most 200 characters');
const templateId = z.string().trim().min(1).max(100);

const bookFields = {
  title: text200,
  subtitle: z.string().trim().max(300).nullable().optional(),
  author_name: text200,
  book_type: z.string().trim().min(1).max(50).default('memoir'),
  campaign_id: z.uuid().nullable().optional(),
  family_group_id: z.uuid().nullable().optional(),
  template_id: templateId.nullable().optional(),
  cover_template_id: templateId.nullable().optional(),
  interior_template_id: templateId.nullable().optional(),
  trim_size: z.enum(TRIM_SIZES, { error: `must be one of ${TRIM_SIZES.join(', ')}` }),
  keywords: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
  categories: z.array(z.string().trim().min(1).max(100)).max(10).default([]),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code such as en or en-GB')
    .default('en'),
  kdp_enrolled: z.boolean().default(false),
  kdp_select: z.boolean().default(false),
};

export const createBookBody = z.strictObject({
  ...bookFields,
  selectedStories: z.array(z.uuid()).max(500).default([]),
});
export type CreateBookInput = z.infer<typeof createBookBody>;

export const updateBookBody = z.strictObject({
  title: text200.optional(),
  subtitle: bookFields.subtitle,
  author_name: text200.optional(),
  book_type: z.string().trim().min(1).max(50).optional(),
  status: z.enum(BOOK_STATUSES).optional(),
  campaign_id: bookFields.campaign_id,
  family_group_id: bookFields.family_group_id,
  template_id: bookFields.template_id,
  cover_template_id: bookFields.cover_template_id,
  interior_template_id: bookFields.interior_template_id,
  trim_size: z.enum(TRIM_SIZES, { error: `must be one of ${TRIM_SIZES.join(', ')}` }).optional(),
  keywords: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
  categories: z.array(z.string().trim().min(1).max(100)).max(10).optional(),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code such as en or en-GB')
    .optional(),
  kdp_enrolled: z.boolean().optional(),
  kdp_select: z.boolean().optional(),
});
export type UpdateBookInput = z.infer<typeof updateBookBody>;

export const bookParams = z.object({ bookId: z.uuid() });
export const chapterParams = z.object({ bookId: z.uuid(), storyId: z.uuid() });

/** Exactly one source: a story from the library, or the story made from a recording or a conversation. */
export const addChapterBody = z
  .strictObject({ storyId: z.uuid().optional(), recordingId: z.uuid().optional(), conversationId: z.uuid().optional() })
  .refine((b) => [b.storyId, b.recordingId, b.conversationId].filter(Boolean).length === 1, {
    message: 'send exactly one of storyId, recordingId, conversationId',
    path: ['storyId'],
  });
export type AddChapterInput = z.infer<typeof addChapterBody>;

export const reorderBody = z.strictObject({ storyIds: z.array(z.uuid()).min(1).max(500) });

export const analysisBody = z
  .strictObject({ bookId: z.uuid().optional(), storyIds: z.array(z.uuid()).min(1).max(500).optional() })
  .refine((b) => (b.bookId ? 1 : 0) + (b.storyIds ? 1 : 0) === 1, { message: 'send bookId or storyIds', path: ['bookId'] });

export const analysisView = z.object({
  source: z.string(),
  totals: z.object({ chapters: z.number().int(), wordCount: z.number().int(), readingMinutes: z.number().int(), estimatedPages: z.number().int() }),
  chapters: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      wordCount: z.number().int(),
      readingMinutes: z.number().int(),
      years: z.array(z.number().int()),
      earliestYear: z.number().int().nullable(),
    }),
  ),
  suggestedOrder: z.array(z.uuid()),
  orderChanged: z.boolean(),
  gaps: z.array(z.object({ from: z.number().int(), to: z.number().int(), years: z.number().int() })),
  suggestions: z.array(z.string()),
  themes: z.array(z.string()),
});
export type ContentAnalysis = z.infer<typeof analysisView>;
