// Request and answer shapes of /api/memories (spec 000 Memories; CONTRACTS §6 paging). Card fields use the
// spec's names ("Memory item: id, kind, title, date, added-by, length or size"); camelCase extras beside them.
import { z } from 'zod';

export const FILTERS = ['All', 'Recordings', 'Videos', 'Photos', 'Book'] as const;
export type Filter = (typeof FILTERS)[number];
export const MEDIA_TYPES = ['recording', 'image', 'export', 'story'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** The spec writes the filters capitalised; clients may send any case. */
const filterParam = z.preprocess(
  (v) => (typeof v === 'string' ? FILTERS.find((f) => f.toLowerCase() === v.trim().toLowerCase()) ?? v : v),
  z.enum(FILTERS, { message: `filter must be one of ${FILTERS.join(', ')}` }),
);

export const listQuery = z.object({
  storytellerId: z.uuid({ message: 'storytellerId must be a uuid' }).optional(),
  filter: filterParam.default('All'),
  page: z
    .string()
    .regex(/^\d+$/, 'page must be a whole number from 0')
    .transform(Number)
    .pipe(z.number().int().min(0).max(1_000_000, 'page must be at most 1000000 (use cursor for deep pages)'))
    .optional(),
  cursor: z.string().min(1).max(600).optional(),
});

export const memoryCard = z.object({
  id: z.uuid(),
  kind: z.enum(['recording', 'video', 'photo', 'picture', 'book', 'story']),
  title: z.string(),
  date: z.string().describe('ISO 8601 UTC'),
  'added-by': z.string().nullable().describe('Who added it (display name)'),
  length: z.number().nullable().describe('Recordings and videos: seconds; stories: words; books: pages'),
  size: z.number().nullable().describe('Bytes of the stored file, when known'),
  addedBy: z.object({ id: z.uuid().nullable(), name: z.string().nullable() }),
  lengthUnit: z.enum(['seconds', 'words', 'pages']).nullable(),
  filedUnder: z.enum(['Recordings', 'Videos', 'Photos', 'Book']),
  canDownload: z.boolean(),
  mediaType: z.enum(MEDIA_TYPES),
  mimeType: z.string().nullable(),
  mediaUrl: z.string(),
  downloadUrl: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
  transcriptStatus: z.string().nullable(),
  bookId: z.uuid().nullable(),
});
export type MemoryCard = z.infer<typeof memoryCard>;

export const storytellerChoice = z.object({
  id: z.uuid(),
  name: z.string(),
  self: z.boolean(),
  canDownload: z.boolean(),
});

export const listAnswer = z.object({
  items: z.array(memoryCard),
  page: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
  storytellers: z.array(storytellerChoice),
  storytellerId: z.uuid(),
  filter: z.enum(FILTERS),
  showChooser: z.boolean().describe('true when the viewer may see more than one storyteller (spec rule 4)'),
});

export const mediaQuery = z.object({
  type: z.enum(MEDIA_TYPES, { message: `type must be one of ${MEDIA_TYPES.join(', ')}` }),
  variant: z.enum(['original', 'thumbnail']).default('original'),
  download: z.enum(['true', 'false', '1', '0']).optional().transform((v) => v === 'true' || v === '1'),
});

export const idParams = z.object({ id: z.uuid({ message: 'id must be a uuid' }) });
