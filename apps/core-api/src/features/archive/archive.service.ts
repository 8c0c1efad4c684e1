// The download-everything archive (spec 000 "Archive"): POST counts and sizes a storyteller's memories and
// opens an export job of kind archive, zipping nothing; the download streams one part as a zip straight
// from storage, one file at a time, with the exact length up front and Range resumes at any byte.
//
// Determinism: a part's bytes follow from the job's snapshot (rows created up to the job's time), storage's
// sizes and a fixed mtime, so every request for the same part gives the same bytes and the same ETag. If a
// file disappears later the next layout lists it as missing and the ETag changes: a resume that sends
// If-Range with the old ETag gets the whole new zip (200), never a mix. A file that fails in the middle of
// a stream cannot keep the promised length honestly, so that response is cut (the client sees an incomplete
// download, not a corrupt file) and the next request lays the part out again.
import type { Readable } from 'node:stream';
import type { Sql } from 'postgres';
import { createZipStream, zipLength } from '@story/archive';
import type { ArchiveEstimate } from '@story/db';
import { AppError, badRequest, notFound } from '@story/http';
import type { ByteRange, ObjectStorage } from '@story/providers';
import type { MemoriesAccess } from '../memories/memories-access';
import { calendarDate } from '../memories/memory-files';
import { layOutPart } from './archive.layout';
import { planParts, type PartSpec } from './archive.parts';
import { createArchiveRepository, FOLDERS, type ArchiveJobRow, type Folder, type FolderItem } from './archive.repository';

export interface ArchiveDeps {
  sql: Sql;
  access: Pick<MemoriesAccess, 'view' | 'requireDownload'>;
  storage: Pick<ObjectStorage, 'head' | 'get'>;
  /** A single zip only up to this estimate; parts at most this each (spec: 1 GB). Tests pass small sizes. */
  partLimitBytes: number;
  log: { warn(obj: unknown, msg: string): void };
}

export interface ArchiveStream {
  body: Readable;
  length: number;
  contentLength: number;
  range?: { start: number; end: number };
  etag: string;
  filename: string;
  lastModified: string;
  /** Call when the response has gone out in full, to record the part as downloaded. */
  done(): Promise<void>;
}

interface StoredPlan extends ArchiveEstimate {
  partLimitBytes: number;
  parts: PartSpec[];
}

export function createArchiveService({ sql, access, storage, partLimitBytes, log }: ArchiveDeps) {
  const repo = createArchiveRepository(sql);

  async function folders(storytellerId: string, cutoff: string, which: readonly Folder[]): Promise<Record<Folder, FolderItem[]>> {
    const out = Object.fromEntries(FOLDERS.map((f) => [f, [] as FolderItem[]])) as Record<Folder, FolderItem[]>;
    for (const folder of which) out[folder] = await repo.folder(folder, storytellerId, cutoff);
    return out;
  }

  async function ownJob(callerId: string, jobId: string): Promise<ArchiveJobRow> {
    const job = await repo.findJob(jobId);
    // Someone else's job is as unknown as a job that does not exist.
    if (!job || job.userId !== callerId) throw notFound('Archive');
    return job;
  }

  return {
    /** Count and size the contents, open the job; nothing is read from storage and nothing is zipped. */
    async open(callerId: string, storytellerId: string) {
      const viewing = await access.view(callerId, storytellerId);
      access.requireDownload(viewing);
      const cutoff = await repo.now();
      const plan = planParts(await folders(storytellerId, cutoff, FOLDERS), partLimitBytes);
      const estimate: StoredPlan = { ...plan, partLimitBytes, completedParts: {} };
      const job = await repo.insertJob({ userId: callerId, storytellerId, estimate });
      return {
        job: { id: job.id, kind: 'archive' as const, status: job.status, storytellerId, createdAt: new Date(job.createdAt).toISOString() },
        itemCount: plan.itemCount,
        approximateBytes: plan.totalBytes,
        folders: FOLDERS.map((f) => ({ folder: f, count: plan.byFolder[f].count, approximateBytes: plan.byFolder[f].bytes })),
        singleZip: plan.singleZip,
        partLimitBytes,
        parts: plan.parts.map((p) => ({
          part: p.name,
          folder: p.folder,
          count: p.count,
          approximateBytes: p.bytes,
          downloadUrl: `/api/account/archive/${job.id}/download?part=${encodeURIComponent(p.name)}`,
        })),
      };
    },

    /**
     * One part as a zip (or the asked byte range of it). Access and the family download switch are checked
     * on every request, also for a job opened while downloads were on.
     */
    async download(callerId: string, jobId: string, partName: string, request: { range?: ByteRange; ifRange?: string }): Promise<ArchiveStream> {
      const job = await ownJob(callerId, jobId);
      const viewing = await access.view(callerId, job.storytellerId, 'Archive');
      access.requireDownload(viewing);
      const plan = job.estimate as StoredPlan;
      const part = plan.parts.find((p) => p.name === partName);
      if (!part) {
        if (partName === 'all' || (FOLDERS as readonly string[]).includes(partName)) {
          throw new AppError('conflict', `This archive is offered as the parts ${plan.parts.map((p) => p.name).join(', ')}`, {
            details: partName === 'all' ? 'the estimate is over the single-zip limit, so each folder is its own zip' : 'this folder is split into numbered parts (or is empty)',
          });
        }
        throw badRequest(`part must be one of ${plan.parts.map((p) => p.name).join(', ')}`, { field: 'part' });
      }
      const which = part.folder === 'all' ? FOLDERS : ([part.folder] as Folder[]);
      const items = await folders(job.storytellerId, job.createdAt, which);
      const hasBookPdf = part.folder === 'all' ? items.book.length > 0 : (await repo.folder('book', job.storytellerId, job.createdAt)).length > 0;
      const laid = await layOutPart(
        { jobId: job.id, createdAt: job.createdAt, storyteller: { id: viewing.storyteller.id, name: viewing.storyteller.name, timezone: viewing.storyteller.timezone }, part, allParts: plan.parts, items, hasBookPdf },
        storage,
        (objects) => repo.checksums(objects),
      );
      const length = zipLength(laid.entries, { mtime: laid.mtime });
      // If-Range with another validator: the bytes changed since, so the whole zip is sent (RFC 9110 13.1.5).
      const range = request.range && (!request.ifRange || request.ifRange === laid.etag) ? resolve(request.range, length) : undefined;
      const learned: { key: string; size: number; crc32: number; sha256: string | null }[] = [];
      const body = createZipStream(laid.entries, {
        mtime: laid.mtime,
        range,
        onEntryChecksum: (index, crc32) => {
          const file = laid.files[index];
          if (file?.storageKey && file.size !== null) learned.push({ key: file.storageKey, size: file.size, crc32, sha256: laid.sha256Of(file.storageKey) });
        },
      });
      body.once('error', (err) => log.warn({ err, jobId: job.id, part: part.name }, 'archive stream stopped: a file could not be read'));
      // Checksums are worth keeping even when the client goes away: they make its resume cheap.
      body.once('close', () => void repo.saveChecksums([...learned.splice(0), ...laid.learnedOutside()]).catch((err: unknown) => log.warn({ err }, 'archive checksums not saved')));
      await repo.markStarted(job.id);
      const end = range ? range.end : length - 1;
      return {
        body,
        length,
        contentLength: range ? range.end - range.start + 1 : length,
        range,
        etag: laid.etag,
        // The storyteller's calendar date (spec 000 Memories 3) and name as written; the route sends the
        // name with RFC 6266 filename* (UTF-8) and a plain ASCII fallback.
        filename: `memories-${safeName(viewing.storyteller.name)}-${calendarDate(job.createdAt, viewing.storyteller.timezone)}-${part.name}.zip`,
        lastModified: new Date(job.createdAt).toUTCString(),
        done: async () => {
          if (end === length - 1) await repo.markPartDone(job.id, part.name, length, plan.parts.map((p) => p.name));
        },
      };
    },
  };
}

function resolve(range: ByteRange, length: number): { start: number; end: number } {
  const start = 'suffix' in range ? Math.max(0, length - range.suffix) : range.start;
  const end = 'suffix' in range ? length - 1 : Math.min(range.end ?? length - 1, length - 1);
  if (start >= length || ('suffix' in range && range.suffix === 0)) {
    throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', { headers: { 'Content-Range': `bytes */${length}` } });
  }
  return { start, end };
}

/** Letters and digits of any script kept; anything else (spaces, punctuation, path characters) becomes one hyphen. */
const safeName = (name: string) =>
  [...name.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')].slice(0, 40).join('').replace(/-+$/, '') || 'storyteller';

export type ArchiveService = ReturnType<typeof createArchiveService>;
