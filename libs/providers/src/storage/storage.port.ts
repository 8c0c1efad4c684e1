// The object storage port (CONTRACTS §1, §4): services depend on this interface, never on S3 or the
// filesystem, so the embedded default and a real bucket behave the same for every caller.
import type { Readable } from 'node:stream';
import { ProviderError } from '../provider-error';

/** A byte range: `start`..`end` inclusive (open-ended without `end`), or the last `suffix` bytes. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface StoredObject {
  /** The object's bytes (the requested range only), streamed: never buffered whole. */
  body: Readable;
  /** Total size of the object in bytes, whatever the range. */
  size: number;
  /** Number of bytes `body` yields. */
  contentLength: number;
  /** The inclusive byte range served, when a range was asked for (the 206 case). */
  range?: { start: number; end: number };
  contentType?: string;
  etag?: string;
}

export interface PutOptions {
  contentType?: string;
  /** Byte length of a streamed body when known: lets S3 take it in one request. */
  contentLength?: number;
}

export interface PresignUploadOptions {
  contentType: string;
  contentLength: number;
  expiresInSeconds: number;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the client must send with the upload (they are part of what was signed). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export type HeadResult = { exists: false } | { exists: true; size: number; contentType?: string; etag?: string };

export interface ListOptions {
  /** Page size (default 1000, at most 1000). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface ListResult {
  /** Keys in ascending order. */
  objects: { key: string; size: number }[];
  /** Present when more objects follow. */
  nextCursor?: string;
}

export interface ObjectStorage {
  readonly provider: 's3' | 'local' | 'none';
  /** Store `body` under `key`, replacing any object there; readers never see a partial object. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ key: string; size: number; etag?: string }>;
  /** Stream an object or a range of it; a missing key throws ProviderError('not_found'), a range past the end a RangeNotSatisfiableError. */
  get(key: string, range?: ByteRange): Promise<StoredObject>;
  /** Size and type of an object, or `{exists: false}` when there is none. */
  head(key: string): Promise<HeadResult>;
  /** Remove an object; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** A URL a client can PUT the bytes to directly, valid for `expiresInSeconds`, with the headers it must send. */
  presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedUpload>;
  /** Objects under the folder `prefix` (keys starting with `prefix/`; '' lists everything), paged by key. */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** For /health: resolves when the store answers, throws a ProviderError when it does not. */
  check(): Promise<void>;
}

/** The range asked for lies outside the object: HTTP code answers 416. */
export class RangeNotSatisfiableError extends ProviderError {
  constructor(provider: string, options: { status?: number; cause?: unknown } = {}) {
    super('rejected_input', provider, 'The requested range is not satisfiable', options);
    this.name = 'RangeNotSatisfiableError';
  }
}

export function isRangeNotSatisfiable(err: unknown): err is RangeNotSatisfiableError {
  return err instanceof RangeNotSatisfiableError;
}

export const MAX_LIST_LIMIT = 1000;

/** Check a range's shape before any I/O: negative or reversed bounds are refused as unsatisfiable. */
export function assertRangeShape(provider: string, range: ByteRange): void {
  const ok =
    'suffix' in range
      ? Number.isSafeInteger(range.suffix) && range.suffix > 0
      : Number.isSafeInteger(range.start) && range.start >= 0 && (range.end === undefined || (Number.isSafeInteger(range.end) && range.end >= range.start));
  if (!ok) throw new RangeNotSatisfiableError(provider);
}

/** Resolve a range against an object's size the way HTTP does (end clamped, suffix longer than the object = whole object). */
export function resolveRange(provider: string, range: ByteRange, size: number): { start: number; end: number } {
  assertRangeShape(provider, range);
  if ('suffix' in range) {
    if (size === 0) throw new RangeNotSatisfiableError(provider);
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) throw new RangeNotSatisfiableError(provider);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** A list prefix as a folder: '' lists everything, 'a/b' and 'a/b/' both list keys under 'a/b/'. */
export function folderPrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

export function listLimit(provider: string, limit: number | undefined): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new ProviderError('rejected_input', provider, 'list limit must be a positive integer');
  return Math.min(limit, MAX_LIST_LIMIT);
}
