// S3 and S3-compatible stores (MinIO, s3rver in tests) through @aws-sdk/client-s3. Every SDK error is
// translated into a ProviderError here; bodies stream both ways and memory stays bounded: a put of
// unknown length goes up as a multipart upload one part at a time.
import type * as S3Sdk from '@aws-sdk/client-s3';
import type * as S3Presigner from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { kindForStatus, ProviderError } from '../provider-error';
import { lazyModule } from '../shared/lazy-module';
import { withTimeout } from '../shared/resilience';
import { assertSafeKey } from './keys';
import {
  assertRangeShape,
  folderPrefix,
  listLimit,
  RangeNotSatisfiableError,
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

const loadSdk = lazyModule(() => ({ ...(require('@aws-sdk/client-s3') as typeof S3Sdk), ...(require('@aws-sdk/s3-request-presigner') as typeof S3Presigner) }));

const PROVIDER = 's3';
const MiB = 1024 * 1024;
/** S3 takes at most 5 GiB in one PutObject. */
const MAX_SINGLE_PUT = 5 * 1024 * MiB;
/** SigV4 presigned URLs live at most 7 days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const CHECK_TIMEOUT_MS = 5000;

export interface S3StorageConfig {
  bucket: string;
  /** For S3-compatible stores (MinIO); unset for AWS. */
  endpoint?: string;
  /**
   * S3_PUBLIC_ENDPOINT: where browsers reach the store, when the services reach it by another name
   * (docker compose: http://minio:9000 inside, http://localhost:9000 for the browser). Presigned URLs are
   * signed for this host (SigV4 signs the host); every other request uses `endpoint`.
   */
  publicEndpoint?: string;
  region: string;
  /** Unset: the SDK's default credential chain (instance role, env, profile). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Socket idle timeout per request (default 30 s); streams stay open as long as bytes flow. */
  requestTimeoutMs?: number;
  /** Part size of multipart puts of unknown length (default 8 MiB, at least 5 MiB): the memory one put holds. */
  partSizeBytes?: number;
}

interface SdkErrorLike {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const NOT_FOUND_NAMES = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket', 'NoSuchUpload']);
const TIMEOUT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);
const NETWORK_CODE = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|ETIMEDOUT)\b/;

/** SDK and network errors as ProviderErrors: the raw error is kept as `cause`, never in the message. */
function translate(err: unknown, operation: string): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as SdkErrorLike;
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? 'Error';
  const say = (what: string) => `s3 ${operation}: ${what}`;
  if (name === 'InvalidRange' || status === 416) return new RangeNotSatisfiableError(PROVIDER, { status: 416, cause: err });
  if (NOT_FOUND_NAMES.has(name)) return new ProviderError('not_found', PROVIDER, say(name), { status, cause: err });
  // The socket errno is in `code`, or only in the message when the SDK's retry layer re-wrapped an
  // error from another realm (as under Jest's VM), so both are consulted.
  const errno = (e.code && NETWORK_CODE.exec(e.code)?.[1]) ?? NETWORK_CODE.exec(e.message ?? '')?.[1];
  if (TIMEOUT_NAMES.has(name) || errno === 'ETIMEDOUT') return new ProviderError('timeout', PROVIDER, say('timed out'), { status, cause: err });
  if (name === 'AbortError') return new ProviderError('timeout', PROVIDER, say('aborted'), { status, cause: err });
  if (status !== undefined && status >= 400) return new ProviderError(kindForStatus(status), PROVIDER, say(`${name} (${status})`), { status, cause: err });
  if (errno) return new ProviderError('unavailable', PROVIDER, say(`store unreachable (${errno})`), { cause: err });
  return new ProviderError('failed', PROVIDER, say(name), { status, cause: err });
}

const stripQuotes = (etag: string | undefined) => etag?.replace(/^"|"$/g, '');

function rangeHeader(range: ByteRange): string {
  assertRangeShape(PROVIDER, range);
  if ('suffix' in range) return `bytes=-${range.suffix}`;
  return `bytes=${range.start}-${range.end ?? ''}`;
}

/** `bytes 0-9/100` → start, end, total. */
function parseContentRange(value: string | undefined): { start: number; end: number; total?: number } | undefined {
  const match = value ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value) : null;
  if (!match) return undefined;
  return { start: Number(match[1]), end: Number(match[2]), ...(match[3] === '*' ? {} : { total: Number(match[3]) }) };
}

/** Cut a stream into parts of at least `partSize` bytes (the last may be smaller), pulling only as parts are consumed. */
async function* partsOf(body: Readable, partSize: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    chunks.push(buf);
    length += buf.length;
    if (length >= partSize) {
      yield Buffer.concat(chunks, length);
      chunks = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(chunks, length);
}

export function createS3Storage(config: S3StorageConfig): ObjectStorage {
  const {
    AbortMultipartUploadCommand,
    CompleteMultipartUploadCommand,
    CreateMultipartUploadCommand,
    DeleteObjectCommand,
    GetObjectCommand,
    HeadBucketCommand,
    HeadObjectCommand,
    ListObjectsCommand,
    PutObjectCommand,
    S3Client,
    UploadPartCommand,
    getSignedUrl,
  } = loadSdk();
  const bucket = config.bucket;
  const partSize = Math.max(5 * MiB, config.partSizeBytes ?? 8 * MiB);
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
    // Checksums only where S3 requires them: the default (CRC32 on every put) sends streamed bodies
    // aws-chunked with trailers, which S3-compatible stores such as s3rver and older MinIO refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5000, requestTimeout: config.requestTimeoutMs ?? 30_000 },
  });
  // Signing needs no connection: a second client only names the public host in the URLs it signs.
  const presignClient = config.publicEndpoint
    ? new S3Client({
        region: config.region,
        endpoint: config.publicEndpoint,
        forcePathStyle: config.forcePathStyle,
        ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      })
    : client;

  async function putSingle(key: string, body: Readable | Buffer, contentLength: number, contentType: string | undefined) {
    const out = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: contentLength, ContentType: contentType }));
    return { key, size: contentLength, ...(out.ETag ? { etag: stripQuotes(out.ETag) } : {}) };
  }

  /** Unknown length: one PutObject when the body fits in a part, else a multipart upload, aborted on failure. */
  async function putMultipart(key: string, body: Readable, contentType: string | undefined) {
    const parts = partsOf(body, partSize);
    const first = await parts.next();
    if (first.done) return putSingle(key, Buffer.alloc(0), 0, contentType);
    const second = await parts.next();
    if (second.done) return putSingle(key, first.value, first.value.length, contentType);

    const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }));
    const uploadId = created.UploadId;
    if (!uploadId) throw new ProviderError('failed', PROVIDER, 's3 put: no upload id');
    try {
      const done: { ETag?: string; PartNumber: number }[] = [];
      let size = 0;
      const upload = async (part: Buffer) => {
        const PartNumber = done.length + 1;
        const out = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber, Body: part, ContentLength: part.length }));
        done.push({ ETag: out.ETag, PartNumber });
        size += part.length;
      };
      await upload(first.value);
      await upload(second.value);
      for await (const part of parts) await upload(part);
      const out = await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: done } }));
      return { key, size, ...(out.ETag ? { etag: stripQuotes(out.ETag) } : {}) };
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw err;
    }
  }

  async function put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ key: string; size: number; etag?: string }> {
    assertSafeKey(key);
    try {
      if (Buffer.isBuffer(body)) {
        if (options.contentLength !== undefined && options.contentLength !== body.length) {
          throw new ProviderError('rejected_input', PROVIDER, `s3 put: body has ${body.length} bytes, contentLength said ${options.contentLength}`);
        }
        return await putSingle(key, body, body.length, options.contentType);
      }
      if (options.contentLength !== undefined && options.contentLength <= MAX_SINGLE_PUT) return await putSingle(key, body, options.contentLength, options.contentType);
      return await putMultipart(key, body, options.contentType);
    } catch (err) {
      if (!Buffer.isBuffer(body)) body.destroy();
      throw translate(err, 'put');
    }
  }

  async function get(key: string, range?: ByteRange): Promise<StoredObject> {
    assertSafeKey(key);
    const header = range ? rangeHeader(range) : undefined;
    try {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: header }));
      if (!(out.Body instanceof Readable)) throw new ProviderError('failed', PROVIDER, 's3 get: body is not a stream');
      const contentRange = parseContentRange(out.ContentRange);
      const contentLength = out.ContentLength ?? (contentRange ? contentRange.end - contentRange.start + 1 : 0);
      return {
        body: out.Body,
        size: contentRange?.total ?? contentLength,
        contentLength,
        ...(contentRange ? { range: { start: contentRange.start, end: contentRange.end } } : {}),
        ...(out.ContentType ? { contentType: out.ContentType } : {}),
        ...(out.ETag ? { etag: stripQuotes(out.ETag) } : {}),
      };
    } catch (err) {
      throw translate(err, 'get');
    }
  }

  async function head(key: string): Promise<HeadResult> {
    assertSafeKey(key);
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return {
        exists: true,
        size: out.ContentLength ?? 0,
        ...(out.ContentType ? { contentType: out.ContentType } : {}),
        ...(out.ETag ? { etag: stripQuotes(out.ETag) } : {}),
      };
    } catch (err) {
      const e = err as SdkErrorLike;
      // HEAD answers carry no body, so a missing key shows only as 404 / NotFound.
      if (e.name !== 'NoSuchBucket' && (e.$metadata?.httpStatusCode === 404 || e.name === 'NotFound' || e.name === 'NoSuchKey')) return { exists: false };
      throw translate(err, 'head');
    }
  }

  async function remove(key: string): Promise<void> {
    assertSafeKey(key);
    try {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      const e = err as SdkErrorLike;
      if (e.name === 'NoSuchKey') return;
      throw translate(err, 'delete');
    }
  }

  async function list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const limit = listLimit(PROVIDER, options.limit);
    const folder = folderPrefix(prefix);
    if (folder !== '') assertSafeKey(folder.slice(0, -1));
    try {
      // ListObjects (v1) with Marker, not v2 with ContinuationToken: s3rver builds v2 tokens with DES,
      // which OpenSSL 3 (Node 18+) refuses, so every truncated v2 page fails there. Marker = the last
      // key returned works on S3, MinIO and s3rver alike, and is the local adapter's cursor too.
      const out = await client.send(
        new ListObjectsCommand({ Bucket: bucket, MaxKeys: limit, ...(folder ? { Prefix: folder } : {}), ...(options.cursor ? { Marker: options.cursor } : {}) }),
      );
      const objects = (out.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [{ key: o.Key, size: o.Size ?? 0 }]));
      const last = objects[objects.length - 1];
      return { objects, ...(out.IsTruncated && last ? { nextCursor: out.NextMarker ?? last.key } : {}) };
    } catch (err) {
      throw translate(err, 'list');
    }
  }

  async function presignUpload(key: string, options: PresignUploadOptions): Promise<PresignedUpload> {
    assertSafeKey(key);
    if (!Number.isSafeInteger(options.contentLength) || options.contentLength < 0) throw new ProviderError('rejected_input', PROVIDER, 'contentLength must be a non-negative integer');
    if (!(options.expiresInSeconds > 0) || options.expiresInSeconds > MAX_PRESIGN_SECONDS) {
      throw new ProviderError('rejected_input', PROVIDER, `expiresInSeconds must be between 1 and ${MAX_PRESIGN_SECONDS}`);
    }
    const expiresIn = Math.floor(options.expiresInSeconds);
    try {
      const command = new PutObjectCommand({ Bucket: bucket, Key: key, ContentType: options.contentType, ContentLength: options.contentLength });
      // The presigner signs only `host` by default; signing these two makes S3 refuse an upload of
      // another type or size than the one the ticket was issued for.
      const signed = new Set(['content-type', 'content-length']);
      const url = await getSignedUrl(presignClient, command, { expiresIn, signableHeaders: signed, unhoistableHeaders: signed });
      return {
        url,
        method: 'PUT',
        headers: { 'content-type': options.contentType, 'content-length': String(options.contentLength) },
        expiresAt: new Date(Date.now() + expiresIn * 1000),
      };
    } catch (err) {
      throw translate(err, 'presign');
    }
  }

  async function check(): Promise<void> {
    try {
      await withTimeout(PROVIDER, CHECK_TIMEOUT_MS, (abortSignal) => client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal }));
    } catch (err) {
      throw translate(err, 'check');
    }
  }

  return { provider: 's3', put, get, head, delete: remove, presignUpload, list, check };
}
