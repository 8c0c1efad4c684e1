// The memories page (spec 000 "Memories and archive"): one storyteller's six kinds of memory, merged newest
// first 24 per page, and each memory's media streamed with the access check repeated on every request.
import { Readable } from 'node:stream';
import { AppError, badRequest, notFound } from '@story/http';
import { isRangeNotSatisfiable, ProviderError, resolveRange, type ByteRange, type ObjectStorage, type StoredObject } from '@story/providers';
import type { CursorCodec } from './memories.cursor';
import type { MemoriesAccess } from './memories-access';
import type { MemoriesRepository, MemoryDetail, Source } from './memories.repository';
import type { Filter, MediaType, MemoryCard } from './memories.schemas';
import { calendarDate, datedBase, extensionOf } from './memory-files';
import { storyPage } from './story-page';

export const PAGE_SIZE = 24;

/** Which sources each filter of spec rule 4 shows (Photos: photo, document and art; Book: PDFs and stories). */
export const SOURCES_OF: Record<Filter, readonly Source[]> = {
  All: ['recording', 'video', 'image', 'story', 'book'],
  Recordings: ['recording'],
  Videos: ['video'],
  Photos: ['image'],
  Book: ['book', 'story'],
};

const MEDIA_TYPE_OF: Record<Source, MediaType> = { recording: 'recording', video: 'recording', image: 'image', story: 'story', book: 'export' };
const FILED_UNDER: Record<Source, MemoryCard['filedUnder']> = { recording: 'Recordings', video: 'Videos', image: 'Photos', story: 'Book', book: 'Book' };
const LENGTH_UNIT: Record<Source, MemoryCard['lengthUnit']> = { recording: 'seconds', video: 'seconds', image: null, story: 'words', book: 'pages' };

export interface ListQuery {
  storytellerId?: string;
  filter: Filter;
  page?: number;
  cursor?: string;
}

export interface MediaAnswer {
  object: StoredObject;
  contentType: string;
  filename: string;
  disposition: 'inline' | 'attachment';
}

export interface MemoriesDeps {
  repo: MemoriesRepository;
  access: MemoriesAccess;
  cursors: CursorCodec;
  storage: Pick<ObjectStorage, 'get' | 'head'>;
}

export function createMemoriesService({ repo, access, cursors, storage }: MemoriesDeps) {
  function card(key: { source: Source; id: string; at: string }, d: MemoryDetail | undefined, canDownload: boolean): MemoryCard | undefined {
    if (!d) return undefined; // removed between the two reads: left out rather than shown half
    const type = MEDIA_TYPE_OF[key.source];
    const mediaUrl = `/api/memories/${d.id}/media?type=${type}`;
    return {
      id: d.id,
      kind: d.kind,
      title: d.title,
      date: new Date(key.at).toISOString(),
      'added-by': d.addedBy,
      length: d.length === null ? null : Number(d.length),
      size: d.size === null ? null : Number(d.size),
      addedBy: { id: d.addedById, name: d.addedBy },
      lengthUnit: d.length === null ? null : LENGTH_UNIT[key.source],
      filedUnder: FILED_UNDER[key.source],
      canDownload,
      mediaType: type,
      mimeType: d.mimeType,
      mediaUrl,
      downloadUrl: canDownload ? `${mediaUrl}&download=true` : null,
      thumbnailUrl: d.hasThumbnail ? `${mediaUrl}&variant=thumbnail` : null,
      transcriptStatus: d.transcriptStatus,
      bookId: d.bookId,
    };
  }

  return {
    async list(viewerId: string, q: ListQuery) {
      let storytellerId = q.storytellerId ?? viewerId;
      let filter = q.filter;
      let page = q.page ?? 0;
      let after: { at: string; id: string } | undefined;
      if (q.cursor !== undefined) {
        if (q.page !== undefined) throw badRequest('Send page or cursor, not both', { field: 'cursor' });
        const c = cursors.decode(q.cursor);
        if (q.storytellerId && q.storytellerId !== c.s) throw badRequest('cursor belongs to another storyteller', { field: 'cursor' });
        if (q.filter !== 'All' && q.filter !== c.f) throw badRequest('cursor belongs to another filter', { field: 'cursor' });
        storytellerId = c.s;
        filter = c.f;
        page = c.p;
        after = { at: c.t, id: c.i };
      }
      const sources = SOURCES_OF[filter];
      const reading = after
        ? repo.pageKeys(storytellerId, sources, { take: PAGE_SIZE + 1, offset: 0, limit: PAGE_SIZE + 1, after })
        : repo.pageKeys(storytellerId, sources, { take: (page + 1) * PAGE_SIZE + 1, offset: page * PAGE_SIZE, limit: PAGE_SIZE + 1 });
      // The keys are read alongside the access check (one round trip less); without access they are dropped unseen.
      reading.catch(() => undefined);
      const viewing = await access.view(viewerId, storytellerId);
      const keys = await reading;
      const hasMore = keys.length > PAGE_SIZE;
      const shown = keys.slice(0, PAGE_SIZE);
      const [details, storytellers] = await Promise.all([repo.details(shown), access.choices(viewerId)]);
      const byId = new Map(details.map((d) => [`${d.source}:${d.id}`, d]));
      const items = shown.map((k) => card(k, byId.get(`${k.source}:${k.id}`), viewing.canDownload)).filter((c): c is MemoryCard => c !== undefined);
      const last = shown[shown.length - 1];
      return {
        items,
        page,
        hasMore,
        nextCursor: hasMore && last ? cursors.encode({ s: storytellerId, f: filter, p: page + 1, t: last.at, i: last.id }) : null,
        storytellers,
        storytellerId,
        filter,
        showChooser: storytellers.length > 1,
      };
    },

    /**
     * One memory's file: access checked now (404 for anyone who may not see it; the plain refusal for a family
     * download while the switch is off), the Range passed to storage, the name dated in the storyteller's zone.
     */
    async media(viewerId: string, id: string, q: { type: MediaType; variant: 'original' | 'thumbnail'; download: boolean }, range?: ByteRange): Promise<MediaAnswer> {
      const row = await repo.media(q.type, id);
      if (!row) throw notFound('Memory');
      const viewing = await access.view(viewerId, row.ownerId, 'Memory');
      if (q.download) access.requireDownload(viewing);
      const base = datedBase(row.at, viewing.storyteller.timezone, row.title);
      const disposition = q.download ? 'attachment' : 'inline';
      if (row.story) {
        const html = Buffer.from(
          storyPage({ ...row.story, dateLine: calendarDate(row.at, viewing.storyteller.timezone), storytellerName: viewing.storyteller.name }),
        );
        return { object: bufferObject(html, range), contentType: 'text/html; charset=utf-8', filename: `${base}.html`, disposition };
      }
      const key = q.variant === 'thumbnail' ? row.thumbnailKey : row.storageKey;
      if (!key) throw notFound(q.variant === 'thumbnail' ? 'Thumbnail' : 'Memory media');
      const object = await getObject(key, range);
      const contentType = q.variant === 'thumbnail' ? (object.contentType ?? 'image/jpeg') : (row.mimeType ?? object.contentType ?? 'application/octet-stream');
      const suffix = q.variant === 'thumbnail' ? '-thumbnail' : '';
      return { object, contentType, filename: `${base}${suffix}.${extensionOf(contentType, key)}`, disposition };
    },
  };

  async function getObject(key: string, range?: ByteRange): Promise<StoredObject> {
    try {
      return await storage.get(key, range);
    } catch (err) {
      if (isRangeNotSatisfiable(err)) {
        const head = await storage.head(key).catch(() => ({ exists: false as const }));
        throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', {
          headers: head.exists ? { 'Content-Range': `bytes */${head.size}` } : undefined,
        });
      }
      if (err instanceof ProviderError && err.kind === 'not_found') throw notFound('Memory media');
      throw new AppError('bad_gateway', 'The memory could not be read from storage', { cause: err });
    }
  }
}

/** A generated file (the story page) served like a stored object, ranges included. */
function bufferObject(data: Buffer, range?: ByteRange): StoredObject {
  if (!range) return { body: Readable.from([data]), size: data.length, contentLength: data.length };
  let span: { start: number; end: number };
  try {
    span = resolveRange('memories', range, data.length);
  } catch {
    throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', { headers: { 'Content-Range': `bytes */${data.length}` } });
  }
  const slice = data.subarray(span.start, span.end + 1);
  return { body: Readable.from([slice]), size: data.length, contentLength: slice.length, range: span };
}

export type MemoriesService = ReturnType<typeof createMemoriesService>;
