// The embedded default (CONTRACTS §1): objects are files under `root` ($DATA_DIR/storage), so `npm start`
// needs no S3. Layout, chosen so no key can collide with bookkeeping files:
//   root/objects/<key>   the bytes
//   root/meta/<key>      a JSON sidecar {contentType?, etag} at the same relative path
//   root/tmp/<uuid>      puts in progress; renamed into place when complete (same filesystem, so atomic),
//                        which keeps half-written files out of get and list.
// Direct uploads go to core-api's own `PUT /api/uploads/direct/<key>` route, which checks the ticket.
import { createHash, randomUUID } from 'node:crypto';
import { close, constants, createReadStream, fstat, open as openFd } from 'node:fs';
import { access, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { ProviderError } from '../provider-error';
import { createBatchedFileWriter } from './batched-file-writer';
import { assertSafeKey } from './keys';
import {
  folderPrefix,
  listLimit,
  resolveRange,
  type ByteRange,
  type HeadResult,
  type ListOptions,
  type ListResult,
  type ObjectStorage,
  type PresignedUpload,
  type PresignUploadOptions,
  type PutOptions,
  type StoredObject,
} from './storage.port';

const PROVIDER = 'local';
/** Bytes per read of a stored object (see get); exported for bench/recordings' bare file-server baseline. */
export const READ_CHUNK_BYTES = 1024 * 1024;
const openFile = promisify(openFd);
const statFd = promisify(fstat);

export interface LocalStorageConfig {
  root: string;
  /** Public base URL of core-api, for direct-upload URLs. */
  publicBaseUrl: string;
}

interface Meta {
  contentType?: string;
  etag?: string;
}

function errnoOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/** Filesystem errors as ProviderErrors; a ProviderError passes through. */
function translate(err: unknown, operation: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const code = errnoOf(err);
  const say = (what: string) => `local storage ${operation}: ${what}`;
  switch (code) {
    case 'ENOENT':
      return new ProviderError('not_found', PROVIDER, say('no such object'), { cause: err });
    case 'ENOTDIR':
    case 'EISDIR':
    case 'ERR_FS_EISDIR':
    case 'EEXIST':
      return new ProviderError('rejected_input', PROVIDER, say('key conflicts with an existing key'), { cause: err });
    case 'ENOSPC':
    case 'EDQUOT':
      return new ProviderError('quota', PROVIDER, say('disk full'), { cause: err });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ProviderError('unavailable', PROVIDER, say('storage directory not writable'), { cause: err });
    default:
      return new ProviderError('failed', PROVIDER, say(code ?? 'unexpected error'), { cause: err });
  }
}

export function createLocalStorage(config: LocalStorageConfig): ObjectStorage {
  const root = path.resolve(config.root);
  const objectsRoot = path.join(root, 'objects');
  const metaRoot = path.join(root, 'meta');
  const tmpRoot = path.join(root, 'tmp');
  const baseUrl = config.publicBaseUrl.replace(/\/+$/, '');

  /** Key → path under `base`; re-checked after resolving, in case assertSafeKey ever misses something. */
  function pathIn(base: string, key: string): string {
    assertSafeKey(key);
    const resolved = path.resolve(base, ...key.split('/'));
    if (!resolved.startsWith(base + path.sep)) throw new ProviderError('rejected_input', PROVIDER, 'Unsafe object key: outside the storage root');
    return resolved;
  }

  async function readMeta(key: string): Promise<Meta> {
    try {
      return JSON.parse(await readFile(pathIn(metaRoot, key), 'utf8')) as Meta;
    } catch {
      return {}; // objects put without a sidecar (or a damaged one) simply have no type or etag
    }
  }

  async function put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ key: string; size: number; etag?: string }> {
    const objectPath = pathIn(objectsRoot, key);
    const metaPath = pathIn(metaRoot, key);
    await mkdir(tmpRoot, { recursive: true }).catch((err) => {
      throw translate(err, 'put');
    });
    const tmpObject = path.join(tmpRoot, `${randomUUID()}.object`);
    const tmpMeta = path.join(tmpRoot, `${randomUUID()}.meta`);
    const md5 = createHash('md5');
    let size = 0;
    try {
      if (Buffer.isBuffer(body)) {
        md5.update(body);
        size = body.length;
        await writeFile(tmpObject, body, { flag: 'wx' });
      } else {
        const file = await open(tmpObject, 'wx');
        try {
          const writer = createBatchedFileWriter(file, md5);
          await pipeline(body, writer.stream);
          size = writer.size();
        } finally {
          await file.close();
        }
      }
      if (options.contentLength !== undefined && options.contentLength !== size) {
        throw new ProviderError('rejected_input', PROVIDER, `local storage put: body has ${size} bytes, contentLength said ${options.contentLength}`);
      }
      const etag = md5.digest('hex');
      const meta: Meta = { ...(options.contentType ? { contentType: options.contentType } : {}), etag };
      await writeFile(tmpMeta, JSON.stringify(meta), { flag: 'wx' });
      await mkdir(path.dirname(objectPath), { recursive: true });
      await mkdir(path.dirname(metaPath), { recursive: true });
      // Sidecar first: once the object is visible, its type is too.
      await rename(tmpMeta, metaPath);
      await rename(tmpObject, objectPath);
      return { key, size, etag };
    } catch (err) {
      if (!Buffer.isBuffer(body)) body.destroy();
      await rm(tmpObject, { force: true }).catch(() => undefined);
      await rm(tmpMeta, { force: true }).catch(() => undefined);
      throw translate(err, 'put');
    }
  }

  async function get(key: string, range?: ByteRange): Promise<StoredObject> {
    const objectPath = pathIn(objectsRoot, key);
    // Open first and stat the open file: a concurrent put renames a new file into place, and this
    // reader keeps the old one whole instead of mixing the two. A plain fd with fs.createReadStream,
    // not FileHandle.createReadStream: the latter reads through promises and streams ~30% slower.
    let fd: number;
    try {
      fd = await openFile(objectPath, 'r');
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ENOTDIR' || code === 'EISDIR') throw new ProviderError('not_found', PROVIDER, 'local storage get: no such object', { cause: err });
      throw translate(err, 'get');
    }
    try {
      const info = await statFd(fd);
      if (!info.isFile()) throw new ProviderError('not_found', PROVIDER, 'local storage get: no such object');
      const meta = await readMeta(key);
      const resolved = range ? resolveRange(PROVIDER, range, info.size) : undefined;
      // The stream owns the fd from here (autoClose): closed at the end, on error and on destroy().
      // 1 MiB reads, not the 64 KiB default: a streamed download then costs a sixteenth of the reads, writes
      // and event-loop turns, and each socket write hands the kernel enough to keep the connection busy.
      // The last byte is always given (the whole object's when no range is asked): each read is then sized to
      // what is left, so a 200 KB object is one read into a buffer of its size, not a 1 MiB read copied down
      // and a second read to find the end.
      const span = resolved ?? (info.size > 0 ? { start: 0, end: info.size - 1 } : undefined);
      const body = createReadStream('', { fd, autoClose: true, highWaterMark: READ_CHUNK_BYTES, ...(span ? { start: span.start, end: span.end } : {}) });
      return {
        body,
        size: info.size,
        contentLength: resolved ? resolved.end - resolved.start + 1 : info.size,
        ...(resolved ? { range: resolved } : {}),
        ...(meta.contentType ? { contentType: meta.contentType } : {}),
        ...(meta.etag ? { etag: meta.etag } : {}),
      };
    } catch (err) {
      close(fd, () => undefined);
      throw translate(err, 'get');
    }
  }

  async function head(key: string): Promise<HeadResult> {
    const objectPath = pathIn(objectsRoot, key);
    try {
      const info = await stat(objectPath);
      if (!info.isFile()) return { exists: false };
      const meta = await readMeta(key);
      return { exists: true, size: info.size, ...(meta.contentType ? { contentType: meta.contentType } : {}), ...(meta.etag ? { etag: meta.etag } : {}) };
    } catch (err) {
      const code = errnoOf(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false };
      throw translate(err, 'head');
    }
  }

  async function remove(key: string): Promise<void> {
    const objectPath = pathIn(objectsRoot, key);
    const metaPath = pathIn(metaRoot, key);
    try {
      const info = await stat(objectPath).catch((err) => {
        if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return undefined;
        throw err;
      });
      if (info && !info.isFile()) return; // a folder of other keys, not an object
      await rm(objectPath, { force: true });
      await rm(metaPath, { force: true });
    } catch (err) {
      throw translate(err, 'delete');
    }
  }

  /** Every key under `dir` (relative to objectsRoot, '/'-separated); a missing folder holds none. */
  async function walk(dir: string, keyPrefix: string, into: string[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      const key = `${keyPrefix}${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${key}/`, into);
      else if (entry.isFile()) into.push(key);
    }
  }

  async function list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const limit = listLimit(PROVIDER, options.limit);
    const folder = folderPrefix(prefix);
    const dir = folder === '' ? objectsRoot : pathIn(objectsRoot, folder.slice(0, -1));
    try {
      const keys: string[] = [];
      await walk(dir, folder, keys);
      // Plain code-unit order; S3 orders by UTF-8 bytes, which agrees for the ASCII keys newObjectKey makes.
      keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const after = options.cursor === undefined ? keys : keys.filter((k) => k > (options.cursor as string));
      const page = after.slice(0, limit);
      const objects = await Promise.all(page.map(async (key) => ({ key, size: (await stat(pathIn(objectsRoot, key))).size })));
      return { objects, ...(after.length > limit ? { nextCursor: page[page.length - 1] } : {}) };
    } catch (err) {
      throw translate(err, 'list');
    }
  }

  async function presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedUpload> {
    assertSafeKey(key);
    if (!Number.isSafeInteger(options.contentLength) || options.contentLength < 0) throw new ProviderError('rejected_input', PROVIDER, 'contentLength must be a non-negative integer');
    if (!(options.expiresInSeconds > 0)) throw new ProviderError('rejected_input', PROVIDER, 'expiresInSeconds must be positive');
    // One path segment ('/' as %2F), so the URL matches the documented `PUT /api/uploads/direct/{key}`; the
    // route decodes it back (a key with raw slashes is still taken).
    const encoded = encodeURIComponent(key);
    return {
      url: `${baseUrl}/api/uploads/direct/${encoded}`,
      method: 'PUT',
      headers: { 'content-type': options.contentType },
      expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000),
    };
  }

  async function check(): Promise<void> {
    try {
      // Created on first check, so a fresh $DATA_DIR is healthy before the first upload.
      await mkdir(root, { recursive: true });
      await access(root, constants.R_OK | constants.W_OK);
    } catch (err) {
      throw new ProviderError('unavailable', PROVIDER, `local storage root ${root} is missing or not writable`, { cause: err });
    }
  }

  return { provider: 'local', put, get, head, delete: remove, presignUpload, list, check };
}
