// The layout of an archive zip (spec 000 Archive 3-5): README.txt, book/, stories/ (pages and stories.json),
// recordings/ and videos/ (media as uploaded plus transcripts), photos/, and manifest.json last. This file
// decides names, order and contents; the zip format stays in libs/archive.
//
// Honest sizes: every stored file is sized by storage itself (head) when the part is laid out, never by the
// database. A file storage cannot find or read then is listed with included false and under "missing",
// and the zip goes on without it.
//
// Checksums: manifest.json gives the SHA-256 of every file in the zip, stored media included, and lists
// itself (its own size; no file can hold its own hash). Stored files are hashed as they stream through the
// zip, never read twice and never held whole: that is why the manifest comes last. A hex SHA-256 is always
// 64 characters, so the manifest's length (and with it the zip's Content-Length) is known before any hash
// is. Hashes learned are kept in archive_checksums with the CRC-32s, so a download resumed past some files
// finds theirs there; one still unknown is computed by streaming that file through the hash.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { createNameDeduper, safeSegment, type ZipEntry } from '@story/archive';
import type { ObjectStorage } from '@story/providers';
import { calendarDate, datedBase, extensionOf } from '../memories/memory-files';
import { storyPage } from '../memories/story-page';
import { inPart, type PartSpec } from './archive.parts';
import { FOLDERS, type Folder, type FolderItem } from './archive.repository';

export interface ManifestFile {
  path: string;
  size: number | null;
  sha256: string | null;
  sourceType: 'recording' | 'video' | 'image' | 'story' | 'export' | 'archive';
  sourceId: string | null;
  included: boolean;
}

/** One file of a part, planned: a generated buffer, or a stored object with storage's size. */
export interface PlannedFile extends ManifestFile {
  storageKey?: string;
  data?: Buffer;
  reason?: string;
}

export interface LayoutInput {
  jobId: string;
  createdAt: string;
  storyteller: { id: string; name: string; timezone: string };
  part: PartSpec;
  allParts: readonly PartSpec[];
  /** Every item of each folder the part draws from (names are made unique over the whole folder). */
  items: Partial<Record<Folder, FolderItem[]>>;
  /** Whether the storyteller has any finished book PDF at all (the README says so when not). */
  hasBookPdf: boolean;
}

const SOURCE_OF: Record<Folder, ManifestFile['sourceType']> = { book: 'export', stories: 'story', recordings: 'recording', videos: 'video', photos: 'image' };

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const generated = (path: string, data: Buffer, sourceType: ManifestFile['sourceType'], sourceId: string | null): PlannedFile => ({
  path,
  size: data.length,
  sha256: sha256(data),
  sourceType,
  sourceId,
  included: true,
  data,
});
const stored = (path: string, item: FolderItem, sourceType: ManifestFile['sourceType']): PlannedFile => ({
  path,
  size: null,
  sha256: null,
  sourceType,
  sourceId: item.id,
  included: true,
  storageKey: item.storageKey ?? undefined,
});

/** The files of one folder in this part, in zip order, before storage has sized them. */
function folderFiles(folder: Folder, all: FolderItem[], input: LayoutInput): PlannedFile[] {
  const tz = input.storyteller.timezone;
  const dedupe = createNameDeduper();
  const files: PlannedFile[] = [];
  if (folder === 'stories') {
    const width = Math.max(2, String(all.length).length);
    const index: unknown[] = [];
    all.forEach((item, i) => {
      const name = dedupe(`${String(i + 1).padStart(width, '0')}-${safeSegment(item.title)}.html`);
      if (!inPart(item, input.part)) return;
      const s = item.story!;
      const page = storyPage({ ...s, title: item.title, dateLine: calendarDate(item.at, tz), storytellerName: input.storyteller.name });
      files.push(generated(`stories/${name}`, Buffer.from(page), 'story', item.id));
      index.push({
        file: name,
        id: item.id,
        title: item.title,
        date: calendarDate(item.at, tz),
        createdAt: new Date(item.at).toISOString(),
        book: s.bookId ? { id: s.bookId, title: s.bookTitle, chapter: s.chapterNumber } : null,
        sourceRecordingIds: s.sourceRecordingIds,
      });
    });
    if (index.length) files.push(generated('stories/stories.json', Buffer.from(`${JSON.stringify({ stories: index }, null, 2)}\n`), 'story', null));
    return files;
  }
  for (const item of all) {
    if (folder === 'book') {
      const name = dedupe(`${safeSegment(item.title)}-${item.exportKind ?? 'interior'}.pdf`);
      if (inPart(item, input.part)) files.push(stored(`book/${name}`, item, 'export'));
      continue;
    }
    // Media and transcript share one unique base name, so they sort and read as a pair.
    const base = dedupe(datedBase(item.at, tz, item.title));
    if (!inPart(item, input.part)) continue;
    files.push(stored(`${folder}/${base}.${extensionOf(item.mimeType, item.storageKey)}`, item, SOURCE_OF[folder]));
    if ((folder === 'recordings' || folder === 'videos') && item.transcript?.trim()) {
      files.push(generated(`${folder}/${base}.transcript.txt`, Buffer.from(`${item.transcript.trim()}\n`), SOURCE_OF[folder], item.id));
    }
  }
  return files;
}

/** Ask storage for each stored file's size (a few at a time); what it cannot find is not included. */
async function sizeStoredFiles(files: PlannedFile[], storage: Pick<ObjectStorage, 'head'>): Promise<void> {
  const pending = files.filter((f) => f.data === undefined);
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const file = pending[next++]!;
      if (!file.storageKey) {
        Object.assign(file, { included: false, reason: 'no stored file' });
        continue;
      }
      try {
        const head = await storage.head(file.storageKey);
        if (head.exists) file.size = head.size;
        else Object.assign(file, { included: false, reason: 'not found in storage' });
      } catch {
        Object.assign(file, { included: false, reason: 'storage could not be read' });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, pending.length) }, worker));
}

function readme(input: LayoutInput, files: PlannedFile[]): Buffer {
  const { part, allParts, storyteller } = input;
  const made = new Date(input.createdAt).toISOString().replace('T', ' ').slice(0, 16);
  const missing = files.filter((f) => !f.included);
  const which =
    part.name === 'all'
      ? 'This zip holds the whole archive.'
      : `This zip is the part "${part.name}" (${allParts.findIndex((p) => p.name === part.name) + 1} of ${allParts.length}: ${allParts.map((p) => p.name).join(', ')}). Each part is a complete zip; download every part to have everything.`;
  const lines = [
    `Memories of ${storyteller.name}`,
    '',
    `This is an archive of everything ${storyteller.name} added to Family Stories: recordings, videos, photos and pictures, stories and book PDFs.`,
    `It was made on ${made} UTC for ${storyteller.name} and the family. It needs no account and no internet to open.`,
    which,
    '',
    'What is inside:',
    '  book/        the newest finished PDF of each book (interior and cover)',
    '  stories/     each story as a web page (open it in any browser); stories.json lists titles, chapters, dates and source recordings',
    '  recordings/  audio exactly as it was uploaded, with a .transcript.txt beside it when there is a transcript',
    '  videos/      videos exactly as they were uploaded, with transcripts',
    '  photos/      photos, documents and pictures',
    '  manifest.json  every file of this zip with its size, SHA-256 checksum and where it came from (it is the last file)',
    '',
    'File names start with the date in the storyteller\'s own time zone.',
  ];
  if (!input.hasBookPdf) lines.push('', 'There is no book PDF in this archive: no book has a finished PDF export, and nothing was generated to fill the gap.');
  if (missing.length) lines.push('', `${missing.length} file(s) could not be read and are not in this zip; manifest.json lists them under "missing".`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

export interface LaidOutPart {
  files: PlannedFile[];
  entries: ZipEntry[];
  /** A strong validator of these exact bytes (If-Range). */
  etag: string;
  mtime: Date;
  /** The SHA-256 of a stored object once known (to keep beside its CRC-32 for later resumes). */
  sha256Of(key: string): string | null;
  /** Checksums of files read only to hash them (a resume that skipped them), to keep as well. */
  learnedOutside(): { key: string; size: number; crc32: number; sha256: string }[];
}

/** What archive_checksums knows of a stored object (matched on key and size). */
export interface KnownChecksum {
  crc32: number;
  sha256: string | null;
}

const MANIFEST = 'manifest.json';
const HASH_PLACEHOLDER = '0'.repeat(64);

/** Lay out one part: names, sizes from storage, README, the files, manifest.json last; the zip entries in order. */
export async function layOutPart(
  input: LayoutInput,
  storage: Pick<ObjectStorage, 'head' | 'get'>,
  known: (objects: { key: string; size: number }[]) => Promise<Map<string, KnownChecksum>>,
): Promise<LaidOutPart> {
  const folders = input.part.folder === 'all' ? FOLDERS : [input.part.folder];
  const files = folders.flatMap((folder) => folderFiles(folder, input.items[folder] ?? [], input));
  await sizeStoredFiles(files, storage);
  const readmeFile = generated('README.txt', readme(input, files), 'archive', null);
  const storedFiles = files.filter((f) => f.included && f.storageKey);
  const knownSums = await known(storedFiles.map((f) => ({ key: f.storageKey!, size: f.size! })));
  // SHA-256 of stored files: known from earlier downloads, or learned as this stream passes them.
  const hashes = new Map<string, string>();
  for (const f of storedFiles) {
    const sum = knownSums.get(f.storageKey!)?.sha256;
    if (sum) hashes.set(f.storageKey!, sum);
  }

  /** The manifest's text for given hashes and its own size (placeholders give the same length as real hashes). */
  const manifestText = (hashOf: (f: PlannedFile) => string | null, ownSize: number): Buffer => {
    const listed = [readmeFile, ...files];
    const manifest = {
      format: 'family-stories-memories-archive/2',
      jobId: input.jobId,
      createdAt: new Date(input.createdAt).toISOString(),
      storyteller: { id: input.storyteller.id, name: input.storyteller.name, timeZone: input.storyteller.timezone },
      part: input.part.name,
      parts: input.allParts.map((p) => p.name),
      checksums: 'sha256 is the SHA-256 (hex) of each file as it is in this zip; manifest.json lists itself with its size only, since no file can hold its own checksum',
      files: [
        ...listed.map((f) => ({ path: f.path, size: f.size, sha256: f.included ? hashOf(f) : null, sourceType: f.sourceType, sourceId: f.sourceId, included: f.included })),
        { path: MANIFEST, size: ownSize, sha256: null, sourceType: 'archive' as const, sourceId: null, included: true },
      ],
      missing: files.filter((f) => !f.included).map((f) => ({ path: f.path, sourceType: f.sourceType, sourceId: f.sourceId, reason: f.reason ?? 'could not be read' })),
    };
    return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  };
  const planned = (f: PlannedFile) => f.sha256 ?? HASH_PLACEHOLDER;
  // The manifest's own size appears in it: settle the number (its digits change the length at most twice).
  let manifestSize = 0;
  for (let i = 0; i < 4; i++) {
    const size = manifestText(planned, manifestSize).length;
    if (size === manifestSize) break;
    manifestSize = size;
  }

  const learned = new Map<string, { size: number; crc32: number; sha256: string }>();
  /** A stored file's SHA-256 without holding it: known, learned while streaming, or read once through the hash. */
  const hashOfStored = async (f: PlannedFile): Promise<string> => {
    const have = hashes.get(f.storageKey!);
    if (have) return have;
    const object = await storage.get(f.storageKey!);
    const hash = createHash('sha256');
    let crc = 0;
    for await (const chunk of object.body) {
      hash.update(chunk as Buffer);
      crc = zlib.crc32(chunk as Buffer, crc);
    }
    const hex = hash.digest('hex');
    hashes.set(f.storageKey!, hex);
    learned.set(f.storageKey!, { size: f.size!, crc32: crc, sha256: hex });
    return hex;
  };

  const manifestEntry: PlannedFile = { path: MANIFEST, size: manifestSize, sha256: null, sourceType: 'archive', sourceId: null, included: true };
  const included = [readmeFile, ...files.filter((f) => f.included), manifestEntry];
  const entries: ZipEntry[] = included.map((f) => ({
    name: f.path,
    size: f.size!,
    crc32: f.data ? zlib.crc32(f.data) : f.storageKey ? knownSums.get(f.storageKey)?.crc32 : undefined,
    open: async (offset: number) => {
      if (f === manifestEntry) {
        // Every file before it has streamed (or was skipped by a resume): all hashes are at hand now.
        const sums = new Map<PlannedFile, string>();
        for (const file of storedFiles) sums.set(file, await hashOfStored(file));
        const text = manifestText((file) => file.sha256 ?? sums.get(file) ?? null, manifestSize);
        if (text.length !== manifestSize) throw new Error(`manifest.json is ${text.length} bytes, ${manifestSize} were announced`);
        return Readable.from([text.subarray(offset)]);
      }
      if (f.data) return Readable.from([f.data.subarray(offset)]);
      const object = await storage.get(f.storageKey!, offset > 0 ? { start: offset } : undefined);
      if (offset > 0 || hashes.has(f.storageKey!)) return object.body;
      // The whole file passes: hash it on the way (the zip computes its CRC-32 from the same bytes).
      const hash = createHash('sha256');
      const key = f.storageKey!;
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          done(null, chunk);
        },
        flush(done) {
          hashes.set(key, hash.digest('hex'));
          done();
        },
      });
      object.body.once('error', (err) => hashing.destroy(err));
      return object.body.pipe(hashing);
    },
  }));
  const etag = createHash('sha256')
    .update(JSON.stringify([input.jobId, input.part.name, included.map((f) => [f.path, f.size, f.sha256 ?? f.storageKey ?? null])]))
    .digest('base64url')
    .slice(0, 32);
  return {
    files: included,
    entries,
    etag: `"${etag}"`,
    mtime: new Date(input.createdAt),
    sha256Of: (key) => hashes.get(key) ?? null,
    learnedOutside: () => [...learned.entries()].map(([key, v]) => ({ key, ...v })),
  };
}
