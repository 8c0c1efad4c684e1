// The zip port (spec 000 Archive 2 and 6): callers describe entries (name, exact size, a lazy opener,
// optionally a known CRC-32) and get back either the exact byte length of the zip or a stream of any byte
// range of it. yazl writes every byte; nothing outside this file knows the zip format.
//
// Why the shape: every entry is stored (no compression), with known sizes and one fixed mtime, so yazl can
// tell the total length before a byte is read and the same entries always give the same bytes. A range that
// starts past some entries does not read them again: their bytes are dropped before they reach the caller,
// and when their CRC-32 is known (recorded by an earlier download) a run of zeros of the right length stands
// in for their data while the known CRC goes into the central directory.
import { createRequire } from 'node:module';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';

// yazl checksums every byte with buffer-crc32, pure JavaScript (about 160 MB/s here), which would cap the
// download far below what storage serves. Node's zlib.crc32 (native, same polynomial and chaining) is ~15x
// faster; both give identical values (checked by zip.test.ts), so the swap changes no byte of any zip.
const requireHere = createRequire(require.resolve('yazl'));
const bufferCrc32 = requireHere('buffer-crc32') as { unsigned: (buf: Buffer | string, previous?: number) => number };
if (typeof zlib.crc32 === 'function') {
  bufferCrc32.unsigned = (buf, previous) => zlib.crc32(typeof buf === 'string' ? Buffer.from(buf) : buf, previous ?? 0);
}

export interface ZipEntry {
  /** Path inside the zip, '/'-separated (make segments safe with safeSegment first). */
  name: string;
  /** Exact byte length of the data: the zip's length is computed from it, and a mismatch fails the stream. */
  size: number;
  /** Open the data (from byte `offset` when asked: only bytes from there on will be used). */
  open(offset: number): Promise<Readable>;
  /** CRC-32 of the data, when already known: lets a range that starts past this entry skip reading it. */
  crc32?: number;
}

export interface ZipOptions {
  /** The modification time written for every entry: fixed, so the bytes are deterministic. */
  mtime: Date;
}

export interface ZipRange {
  /** First byte to send (inclusive). */
  start: number;
  /** Last byte to send (inclusive); defaults to the last byte of the zip. */
  end?: number;
}

export interface ZipStreamEvents {
  /** Called when an entry's data went through in full with its CRC-32 (to remember for later resumes). */
  onEntryChecksum?(index: number, crc32: number): void;
}

const entryOptions = (entry: ZipEntry, mtime: Date) => ({ size: entry.size, mtime, compress: false, mode: 0o100644 });

/** The exact byte length of the zip these entries make (yazl's own calculation, nothing is read). */
export function zipLength(entries: readonly Pick<ZipEntry, 'name' | 'size'>[], options: ZipOptions): number {
  return layout(entries, options).total;
}

/** Where each entry's data starts and ends in the zip, and the total, from yazl's size calculation. */
export function layout(entries: readonly Pick<ZipEntry, 'name' | 'size'>[], options: ZipOptions): { total: number; dataStart: number[]; dataEnd: number[] } {
  const zip = new ZipFile();
  for (const entry of entries) zip.addReadStreamLazy(entry.name, entryOptions(entry as ZipEntry, options.mtime), () => undefined);
  let total = -1;
  // @types/yazl predates the size callback of yazl 3's end().
  const end = zip.end.bind(zip) as unknown as (options: object, onSize: (size: number) => void) => void;
  end({ forceZip64Format: false, comment: '' }, (size) => {
    total = size;
  });
  if (total < 0) throw new Error('zip size could not be calculated');
  // yazl set each entry's local header offset while calculating; the data follows the 30-byte header and the name.
  const internal = (zip as unknown as { entries: { relativeOffsetOfLocalHeader: number; utf8FileName: Buffer }[] }).entries;
  const dataStart = internal.map((e) => e.relativeOffsetOfLocalHeader + 30 + e.utf8FileName.length);
  const dataEnd = dataStart.map((s, i) => s + entries[i]!.size);
  (zip.outputStream as Readable).destroy();
  return { total, dataStart, dataEnd };
}

/**
 * The zip (or a byte range of it) as a stream. Entries are opened one at a time, when yazl reaches them;
 * an open or read failure destroys the stream with that error (the caller decides what the client sees).
 */
export function createZipStream(entries: readonly ZipEntry[], options: ZipOptions & { range?: ZipRange } & ZipStreamEvents = { mtime: new Date(0) }): Readable {
  const { dataStart, dataEnd, total } = layout(entries, options);
  const start = options.range?.start ?? 0;
  const end = Math.min(options.range?.end ?? total - 1, total - 1);
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const zip = new ZipFile();
  const zipOut = zip.outputStream as Readable;
  const internal = (zip as unknown as { entries: { crc32: number | null }[] }).entries;
  let failed = false;
  let current: Readable | undefined;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    out.destroy(err);
    zipOut.destroy();
    current?.destroy();
  };
  // The client went away (or the stream was destroyed): stop reading storage at once.
  out.once('close', () => {
    if (out.readableEnded) return;
    failed = true;
    zipOut.destroy();
    current?.destroy();
  });

  // Entries whose data really went through yazl (not stand-ins): their CRC-32 is worth remembering.
  const computed = new Set<number>();
  const reportCrcs = () => {
    for (const index of computed) {
      const crc = internal[index]?.crc32;
      if (typeof crc !== 'number' || (internal[index] as { state?: number }).state !== 3) continue;
      computed.delete(index);
      options.onEntryChecksum?.(index, crc);
    }
  };
  zipOut.once('end', reportCrcs);

  entries.forEach((entry, index) => {
    const skipWhole = dataEnd[index]! <= start && entry.crc32 !== undefined;
    zip.addReadStreamLazy(entry.name, entryOptions(entry, options.mtime), (cb) => {
      if (failed) return;
      // yazl opens an entry only after the one before it is written: its CRC is final now.
      reportCrcs();
      // Past the range's end nothing more is needed: never open it (the slicer ends the output first).
      if (dataStart[index]! > end + 1) return;
      const begin = Math.max(0, start - dataStart[index]!);
      let opening: Promise<Readable>;
      if (skipWhole) opening = Promise.resolve(zeros(entry.size));
      else if (begin > 0 && entry.crc32 !== undefined) opening = entry.open(begin).then((s) => prefixed(zeros(begin), s));
      else opening = entry.open(0);
      opening.then(
        (stream) => {
          current = stream;
          stream.once('error', (err) => fail(err instanceof Error ? err : new Error(String(err))));
          if (entry.crc32 !== undefined && (skipWhole || begin > 0)) pinCrc(internal[index]!, entry.crc32);
          else computed.add(index);
          cb(null, stream);
        },
        (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
      );
    });
  });


  zip.on('error', (err: Error) => fail(err));
  zip.end({ forceZip64Format: false, comment: '' });
  let position = 0;
  const slicer = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      const from = position;
      position += chunk.length;
      if (position <= start || from > end) return done();
      done(null, chunk.subarray(Math.max(0, start - from), Math.min(chunk.length, end + 1 - from)));
      if (position > end) {
        // Everything asked for is out: end cleanly and stop yazl from reading further entries.
        reportCrcs();
        this.push(null);
        failed = true;
        zipOut.unpipe(slicer);
        zipOut.destroy();
        current?.destroy();
      }
    },
  });
  if (start === 0 && end === total - 1) {
    // The whole zip: no slicing to do, one stream hop fewer per chunk.
    zipOut.pipe(out);
  } else {
    zipOut.pipe(slicer).pipe(out);
    slicer.on('error', (err) => fail(err));
  }
  return out;
}

/** Keep a known CRC on yazl's entry whatever the stand-in bytes hash to (the central directory reads it). */
function pinCrc(entry: { crc32: number | null }, crc32: number): void {
  Object.defineProperty(entry, 'crc32', { get: () => crc32, set: () => undefined, configurable: true });
}

const ZERO_CHUNK = Buffer.alloc(1024 * 1024);

/** `length` zero bytes, from one shared buffer (stand-ins for data that is not sent). */
function zeros(length: number): Readable {
  let left = length;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, ZERO_CHUNK.length);
      left -= n;
      this.push(n === ZERO_CHUNK.length ? ZERO_CHUNK : ZERO_CHUNK.subarray(0, n));
    },
  });
}

/** `head` then `tail`, as one stream; errors of either end it. */
function prefixed(head: Readable, tail: Readable): Readable {
  return Readable.from(
    (async function* () {
      for await (const chunk of head) yield chunk as Buffer;
      for await (const chunk of tail) yield chunk as Buffer;
    })(),
    { objectMode: false },
  );
}
