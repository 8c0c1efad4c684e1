// The data export zip (yazl): data.json first (deflated), then every media file the account owns, stored
// as they are (already compressed formats), written one after another. A few sources ahead of the one being
// written are opened and their first buffer read already (OPEN_AHEAD, so about that many MiB at most with
// the local adapter's 1 MiB reads): the zip then never waits on an open or a first read, and the media
// reads overlap data.json's queries and deflate. One that fails while it waits (an idle remote stream timed
// out) is opened again at its turn. manifest.json closes the archive and names any file storage could not
// give. Kept small and local to this feature so it can move onto the shared zip port of libs/archive later.
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';
import { createNameDeduper, safeSegment } from '@story/archive';
import type { ObjectStorage } from '@story/providers';
import type { OwnedFile } from '../privacy/owned-files';

type Crc32Module = { unsigned: (buf: Buffer | string | number, previous?: number | Buffer) => number };

/**
 * yazl checksums every byte through buffer-crc32, a JavaScript loop over `arguments` that cost more CPU
 * than reading the file (the bench measured the zip at a quarter of the raw read rate because of it).
 * Node's zlib.crc32 (Node >= 20.15) computes the same CRC-32 natively, so buffer-crc32's `unsigned` (the
 * one function yazl calls, looked up on every chunk) is routed there for Buffer input; anything else keeps
 * the original. The result is identical (export-zip.test.ts checks it, and `unzip -t` verifies archives).
 */
export function useNativeCrc32(): boolean {
  const nativeCrc = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;
  // The very module object yazl holds (its exports are looked up on every call).
  const module = require('buffer-crc32') as Crc32Module & { nativeRouted?: boolean };
  if (!nativeCrc || module.nativeRouted) return Boolean(module.nativeRouted);
  const original = module.unsigned;
  module.unsigned = (buf, previous) =>
    Buffer.isBuffer(buf) && (previous === undefined || typeof previous === 'number') ? nativeCrc(buf, previous ?? 0) : original(buf, previous);
  module.nativeRouted = true;
  return true;
}
useNativeCrc32();

export interface ZipEntrySource {
  /** Name inside the zip. */
  name: string;
  /** Opened when its turn comes. */
  open(): Promise<Readable>;
  compress?: boolean;
}

export interface ZipOutcome {
  entries: number;
  missing: { name: string; reason: string }[];
}

const FOLDERS: Record<string, string> = {
  recording: 'recordings',
  image: 'images',
  import: 'imports',
  'conversation-audio': 'conversations',
  'family-memory': 'family-memories',
  flipbook: 'flipbooks',
};

/** Zip entries for the account's media files: <folder>/<date>-<title>.<ext>, unique within each folder. */
export function mediaEntries(files: readonly OwnedFile[], storage: Pick<ObjectStorage, 'get'>): (ZipEntrySource & { key: string })[] {
  const dedupe = createNameDeduper();
  return files.map((f) => {
    const ext = /\.([a-z0-9]{1,16})$/i.exec(f.key)?.[1]?.toLowerCase();
    const base = `${f.createdAt.slice(0, 10)}-${safeSegment(f.title, f.kind)}`;
    const name = dedupe(`${FOLDERS[f.kind] ?? 'files'}/${base}${ext ? `.${ext}` : ''}`);
    return { name, key: f.key, compress: false, open: async () => (await storage.get(f.key)).body };
  });
}

/** Sources opened (and their first buffer read) ahead of the one being written; see the top of the file. */
export const OPEN_AHEAD = 8;

type Opened = { body: Readable } | { error: unknown };

/**
 * A zip streamed from `entries`, in order. `done` settles when the last entry is written: it resolves with
 * what went in and rejects when an entry broke mid-way or the stream was destroyed (the zip is then
 * incomplete and its consumer must discard it). Every source opened is closed whatever happens.
 */
export function streamZip(
  entries: readonly ZipEntrySource[],
  manifest: (outcome: ZipOutcome) => Record<string, unknown>,
  { openAhead = OPEN_AHEAD }: { openAhead?: number } = {},
): { stream: Readable; done: Promise<ZipOutcome> } {
  const zip = new ZipFile();
  const stream = zip.outputStream as Readable;
  const outcome: ZipOutcome = { entries: 0, missing: [] };
  let stopped = false;
  // Opens under way or done, not yet handed to yazl, in entry order.
  const ahead: Promise<Opened>[] = [];
  const bodies = new Set<Readable>();
  let next = 0;
  const openOne = (entry: ZipEntrySource): Promise<Opened> =>
    Promise.resolve()
      .then(() => entry.open())
      .then(
        (body): Opened => {
          if (stopped) body.destroy();
          else {
            bodies.add(body);
            // A read error before its turn is dealt with when the turn comes; keep it from crashing.
            body.on('error', () => undefined);
            // Start the first read now, so the bytes are there when yazl asks (bounded by the source's buffer).
            body.read(0);
          }
          return { body };
        },
        (error: unknown): Opened => ({ error }),
      );
  const fill = () => {
    for (let entry = entries[next]; !stopped && entry && ahead.length < Math.max(1, openAhead); entry = entries[++next]) ahead.push(openOne(entry));
  };
  const stop = () => {
    stopped = true;
    for (const body of bodies) body.destroy();
    bodies.clear();
  };
  // The consumer went away (or destroyed the stream): close every source at once, the one being written too.
  stream.once('close', () => {
    if (!stream.readableEnded) stop();
  });
  const done = (async () => {
    try {
      fill();
      for (const entry of entries) {
        // fill() ran before, so this entry's open is under way (or done) already.
        let opened = await (ahead.shift() ?? openOne(entry));
        fill();
        if ('body' in opened && (opened.body.errored || opened.body.destroyed) && !stopped) {
          // It failed while waiting its turn (a remote store's idle timeout, say): none of it was written yet,
          // so it is opened again, once; a failure now is the entry's own.
          bodies.delete(opened.body);
          opened = await openOne(entry);
        }
        if (stopped) throw new Error('the zip stream was closed before its end');
        if ('error' in opened) {
          // A file storage cannot give (deleted meanwhile, unreadable) is named in the manifest; the zip goes on.
          outcome.missing.push({ name: entry.name, reason: opened.error instanceof Error ? opened.error.message : 'unreadable' });
          continue;
        }
        const { body } = opened;
        zip.addReadStream(body, entry.name, { compress: entry.compress ?? true });
        outcome.entries += 1;
        // One entry written at a time: wait until yazl has read this one to its end.
        await finished(body);
        bodies.delete(body);
      }
      zip.addBuffer(Buffer.from(JSON.stringify(manifest(outcome), null, 2)), 'manifest.json');
      outcome.entries += 1;
      zip.end();
      return outcome;
    } catch (err) {
      stop();
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  })();
  zip.on('error', (err: Error) => {
    stop();
    stream.destroy(err);
  });
  // The consumer learns of a failure through the stream; keep the promise from being an unhandled rejection.
  done.catch(() => undefined);
  return { stream, done };
}
