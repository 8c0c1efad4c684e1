// One contract, both adapters: the local filesystem on a temp dir and the S3 adapter against a real
// s3rver on 127.0.0.1, so services see the same behaviour whichever store is configured.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { ProviderError } from '../provider-error';
import { createObjectStorage, isRangeNotSatisfiable, newObjectKey, type ObjectStorage } from './index';

const BUCKET = 'test-bucket';

interface Harness {
  storage: ObjectStorage;
  close(): Promise<void>;
  /** The local adapter's root directory (local harness only). */
  root?: string;
}

async function localHarness(): Promise<Harness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'storage-local-'));
  const storage = createObjectStorage({ driver: 'local', root: path.join(dir, 'storage') }, { publicBaseUrl: 'http://127.0.0.1:3000/' });
  return { storage, root: path.join(dir, 'storage'), close: () => rm(dir, { recursive: true, force: true }) };
}

async function s3Harness(): Promise<Harness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'storage-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  const storage = createObjectStorage(
    { driver: 's3', bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    { publicBaseUrl: 'http://127.0.0.1:3000' },
  );
  return {
    storage,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `total` bytes of a repeatable pattern, in 64 KB chunks, produced on demand. */
function generated(total: number, chunkSize = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunkSize, total - sent);
      const chunk = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) % 251;
      sent += n;
      this.push(chunk);
    },
  });
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sha256Of(body: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest('hex'), bytes };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const ALPHABET = Buffer.from('abcdefghijklmnopqrstuvwxyz'); // 26 bytes

describe.each([
  ['local', localHarness],
  ['s3', s3Harness],
] as const)('ObjectStorage contract: %s adapter', (driver, start) => {
  let harness: Harness;
  let storage: ObjectStorage;

  beforeAll(async () => {
    harness = await start();
    storage = harness.storage;
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('reports its provider and answers check()', async () => {
    expect(storage.provider).toBe(driver);
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('puts a buffer and a stream, and head reports size and type', async () => {
    const a = await storage.put('put/buffer.txt', ALPHABET, { contentType: 'text/plain' });
    expect(a).toMatchObject({ key: 'put/buffer.txt', size: 26 });
    const b = await storage.put('put/stream.bin', generated(300_000), { contentType: 'application/octet-stream', contentLength: 300_000 });
    expect(b).toMatchObject({ key: 'put/stream.bin', size: 300_000 });
    const c = await storage.put('put/unknown-length.bin', generated(100_000));
    expect(c.size).toBe(100_000);

    expect(await storage.head('put/buffer.txt')).toMatchObject({ exists: true, size: 26, contentType: 'text/plain' });
    expect(await storage.head('put/stream.bin')).toMatchObject({ exists: true, size: 300_000, contentType: 'application/octet-stream' });
    expect(await storage.head('put/unknown-length.bin')).toMatchObject({ exists: true, size: 100_000 });
    expect(await storage.head('put/missing.bin')).toEqual({ exists: false });

    const whole = await storage.get('put/stream.bin');
    const expected = await readAll(generated(300_000));
    expect(whole).toMatchObject({ size: 300_000, contentLength: 300_000, contentType: 'application/octet-stream' });
    expect(whole.range).toBeUndefined();
    expect((await readAll(whole.body)).equals(expected)).toBe(true);
  });

  it('replaces an object on a second put', async () => {
    await storage.put('put/replace.txt', Buffer.from('first version'));
    await storage.put('put/replace.txt', Buffer.from('second'), { contentType: 'text/plain' });
    const got = await storage.get('put/replace.txt');
    expect((await readAll(got.body)).toString()).toBe('second');
    expect(got.size).toBe(6);
  });

  describe('ranges', () => {
    beforeAll(async () => {
      await storage.put('ranges/alphabet.txt', ALPHABET, { contentType: 'text/plain' });
    });

    it('serves exactly start..end with the range and the total size', async () => {
      const got = await storage.get('ranges/alphabet.txt', { start: 2, end: 5 });
      expect(got).toMatchObject({ size: 26, contentLength: 4, range: { start: 2, end: 5 } });
      expect((await readAll(got.body)).toString()).toBe('cdef');
    });

    it('serves an open-ended range to the end', async () => {
      const got = await storage.get('ranges/alphabet.txt', { start: 20 });
      expect(got).toMatchObject({ size: 26, contentLength: 6, range: { start: 20, end: 25 } });
      expect((await readAll(got.body)).toString()).toBe('uvwxyz');
    });

    it('clamps an end past the object', async () => {
      const got = await storage.get('ranges/alphabet.txt', { start: 24, end: 1000 });
      expect(got).toMatchObject({ contentLength: 2, range: { start: 24, end: 25 } });
      expect((await readAll(got.body)).toString()).toBe('yz');
    });

    // s3rver answers suffix ranges wrongly (STACK-NOTES), so they are defined for the local adapter only.
    if (driver === 'local') {
    it('serves a suffix range', async () => {
      const got = await storage.get('ranges/alphabet.txt', { suffix: 3 });
      expect(got).toMatchObject({ size: 26, contentLength: 3, range: { start: 23, end: 25 } });
      expect((await readAll(got.body)).toString()).toBe('xyz');
      const longer = await storage.get('ranges/alphabet.txt', { suffix: 100 });
      expect(longer).toMatchObject({ contentLength: 26, range: { start: 0, end: 25 } });
      await readAll(longer.body);
    });
    }

    it('refuses a range that starts past the end as not satisfiable', async () => {
      const err = await rejection(storage.get('ranges/alphabet.txt', { start: 26 }));
      expect(isRangeNotSatisfiable(err)).toBe(true);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).toMatchObject({ kind: 'rejected_input', message: expect.stringMatching(/not satisfiable/) });
      expect(isRangeNotSatisfiable(await rejection(storage.get('ranges/alphabet.txt', { start: 5, end: 2 })))).toBe(true);
    });
  });

  it('serves a range from the middle of a multi-MiB object exactly, across read-chunk boundaries', async () => {
    const size = 5 * 1024 * 1024 + 12_345;
    const expected = await readAll(generated(size));
    await storage.put('ranges/big.bin', generated(size), { contentType: 'application/octet-stream' });
    const mid = Math.floor(size / 2) + 1;
    const open = await storage.get('ranges/big.bin', { start: mid });
    expect(open).toMatchObject({ size, contentLength: size - mid, range: { start: mid, end: size - 1 } });
    expect((await readAll(open.body)).equals(expected.subarray(mid))).toBe(true);
    // start and end on either side of the 1 MiB marks, not aligned to anything
    const [start, end] = [1024 * 1024 - 3, 3 * 1024 * 1024 + 7];
    const closed = await storage.get('ranges/big.bin', { start, end });
    expect(closed).toMatchObject({ contentLength: end - start + 1, range: { start, end } });
    expect((await readAll(closed.body)).equals(expected.subarray(start, end + 1))).toBe(true);
  });

  if (driver === 'local') {
    it('keeps nothing when a streamed body fails half-way: no object, no temp file', async () => {
      let sent = 0;
      const failing = new Readable({
        read() {
          if (sent >= 3 * 1024 * 1024) return void this.destroy(new Error('client went away'));
          sent += 64 * 1024;
          this.push(Buffer.alloc(64 * 1024, 1));
        },
      });
      await expect(storage.put('put/half.bin', failing)).rejects.toBeInstanceOf(ProviderError);
      expect(await storage.head('put/half.bin')).toEqual({ exists: false });
      expect(await readdir(path.join(harness.root!, 'tmp'))).toEqual([]);
    });
  }

  it('answers not_found for a missing key', async () => {
    const err = await rejection(storage.get('missing/nothing-here.bin'));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'not_found' });
    expect(isRangeNotSatisfiable(err)).toBe(false);
  });

  it('deletes, and deleting again is fine', async () => {
    await storage.put('delete/me.txt', Buffer.from('bye'));
    expect(await storage.head('delete/me.txt')).toMatchObject({ exists: true });
    await storage.delete('delete/me.txt');
    expect(await storage.head('delete/me.txt')).toEqual({ exists: false });
    await expect(storage.delete('delete/me.txt')).resolves.toBeUndefined();
    await expect(storage.get('delete/me.txt')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('lists a prefix in key order, two at a time', async () => {
    const keys = ['list/p/e.txt', 'list/p/a.txt', 'list/p/c/d.txt', 'list/p/b.txt', 'list/p/c/c.txt'];
    for (const [i, key] of keys.entries()) await storage.put(key, Buffer.alloc(i + 1, 120));
    await storage.put('list/pp/outside.txt', Buffer.from('not under list/p/'));
    await storage.put('list/other.txt', Buffer.from('x'));

    const pages: { key: string; size: number }[][] = [];
    let cursor: string | undefined;
    do {
      const page = await storage.list('list/p', { limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(page.objects);
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(5);
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([
      { key: 'list/p/a.txt', size: 2 },
      { key: 'list/p/b.txt', size: 4 },
      { key: 'list/p/c/c.txt', size: 5 },
      { key: 'list/p/c/d.txt', size: 3 },
      { key: 'list/p/e.txt', size: 1 },
    ]);
    expect((await storage.list('list/p/')).objects).toHaveLength(5);
    expect(await storage.list('list/none')).toEqual({ objects: [] });
  });

  it('presigns a direct upload', async () => {
    const key = newObjectKey('uploads/user-1', 'mp3');
    expect(key).toMatch(/^uploads\/user-1\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.mp3$/);
    const payload = Buffer.from('direct upload bytes');
    const presigned = await storage.presignUpload(key, { contentType: 'audio/mpeg', contentLength: payload.length, expiresInSeconds: 600 });
    expect(presigned.method).toBe('PUT');
    expect(presigned.headers['content-type']).toBe('audio/mpeg');
    expect(presigned.expiresAt.getTime()).toBeGreaterThan(Date.now() + 590_000);
    expect(presigned.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 600_000);

    if (driver === 'local') {
      // One path segment, as the documented PUT /api/uploads/direct/{key} has it.
      expect(presigned.url).toBe(`http://127.0.0.1:3000/api/uploads/direct/${encodeURIComponent(key)}`);
      const odd = await storage.presignUpload('a b/ü+x', { contentType: 'text/plain', contentLength: 1, expiresInSeconds: 60 });
      expect(odd.url).toBe('http://127.0.0.1:3000/api/uploads/direct/a%20b%2F%C3%BC%2Bx');
      return;
    }
    expect(presigned.url).toContain('X-Amz-Signature=');
    expect(new URL(presigned.url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type', 'host']));
    const res = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body: payload });
    expect(res.status).toBe(200);
    expect(await storage.head(key)).toMatchObject({ exists: true, size: payload.length, contentType: 'audio/mpeg' });

    // s3rver does not verify V4 signatures, so refusal of another type or size cannot be shown here;
    // that both are among the signed headers (checked above) is what makes S3 and MinIO refuse it.
  });

  it.each(['../x', '/abs', 'a/../b', 'a\\b', 'a\u0000b', 'a//b', '', './a', 'a/', 'x'.repeat(1025)])('refuses the unsafe key %j', async (key) => {
    for (const attempt of [
      () => storage.put(key, Buffer.from('x')),
      () => storage.get(key),
      () => storage.head(key),
      () => storage.delete(key),
      () => storage.presignUpload(key, { contentType: 'text/plain', contentLength: 1, expiresInSeconds: 60 }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ name: 'ProviderError', kind: 'rejected_input' });
    }
  });

  it('streams a 20 MB object in and out with bounded memory', async () => {
    const size = 20 * 1024 * 1024;
    const expected = await sha256Of(generated(size));
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      // Unknown length: the S3 adapter goes multipart, holding one part at a time.
      await storage.put('big/twenty.bin', generated(size), { contentType: 'application/octet-stream' });
      expect(await storage.head('big/twenty.bin')).toMatchObject({ exists: true, size });
      const got = await storage.get('big/twenty.bin');
      expect(got.contentLength).toBe(size);
      expect(await sha256Of(got.body)).toEqual(expected);
      await storage.put('big/twenty-known.bin', generated(size), { contentLength: size });
      expect(await sha256Of((await storage.get('big/twenty-known.bin')).body)).toEqual(expected);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect((peak - before) / (1024 * 1024)).toBeLessThan(60);
  });
});

describe('newObjectKey', () => {
  it('makes unguessable keys under the prefix, dated in UTC', () => {
    const a = newObjectKey('recordings/u1/', '.WAV', new Date('2024-03-31T23:30:00Z'));
    const b = newObjectKey('recordings/u1', undefined, new Date('2024-03-31T23:30:00Z'));
    expect(a).toMatch(/^recordings\/u1\/2024\/03\/[0-9a-f-]{36}\.wav$/);
    expect(b).toMatch(/^recordings\/u1\/2024\/03\/[0-9a-f-]{36}$/);
    expect(a.slice(0, -4)).not.toBe(b);
  });

  it('refuses unsafe prefixes and extensions', () => {
    expect(() => newObjectKey('../etc')).toThrow(ProviderError);
    expect(() => newObjectKey('ok', 'x/../y')).toThrow(ProviderError);
  });
});

describe('check() when the store does not answer', () => {
  it('s3: a closed port is unavailable, as a ProviderError', async () => {
    const storage = createObjectStorage(
      { driver: 's3', bucket: BUCKET, endpoint: 'http://127.0.0.1:9', region: 'us-east-1', accessKeyId: 'x', secretAccessKey: 'y', forcePathStyle: true },
      { publicBaseUrl: 'http://127.0.0.1:3000' },
    );
    const err = await rejection(storage.check());
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ provider: 's3', kind: expect.stringMatching(/^(unavailable|timeout)$/) });
    await expect(storage.head('a/b')).rejects.toBeInstanceOf(ProviderError);
  });

  it('local: a root that cannot be created is unavailable', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'storage-check-'));
    try {
      const file = path.join(dir, 'not-a-dir');
      await writeFile(file, 'x');
      const storage = createObjectStorage({ driver: 'local', root: path.join(file, 'storage') }, { publicBaseUrl: 'http://x' });
      await expect(storage.check()).rejects.toMatchObject({ name: 'ProviderError', kind: 'unavailable' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('S3_PUBLIC_ENDPOINT: presigned URLs for the browser’s address of the store', () => {
  it('signs presigned uploads for the public host while every other call uses the internal endpoint', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'storage-s3rver-public-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
    const { port } = await server.run();
    const base = { driver: 's3' as const, bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
    // As under docker compose: the services reach the store as 127.0.0.1, the browser as localhost.
    const storage = createObjectStorage({ ...base, publicEndpoint: `http://localhost:${port}` }, { publicBaseUrl: 'http://127.0.0.1:3000' });
    const internalOnly = createObjectStorage(base, { publicBaseUrl: 'http://127.0.0.1:3000' });
    try {
      const key = newObjectKey('recordings/user-1', 'webm');
      const payload = Buffer.from('bytes from the browser');
      const presigned = await storage.presignUpload(key, { contentType: 'audio/webm', contentLength: payload.length, expiresInSeconds: 600 });
      const url = new URL(presigned.url);
      expect(`${url.protocol}//${url.host}`).toBe(`http://localhost:${port}`);
      expect(url.pathname).toBe(`/${BUCKET}/${key}`);
      // The signature covers the host, so it is not the internal URL's with the host swapped.
      const internal = new URL((await internalOnly.presignUpload(key, { contentType: 'audio/webm', contentLength: payload.length, expiresInSeconds: 600 })).url);
      expect(internal.host).toBe(`127.0.0.1:${port}`);
      expect(url.searchParams.get('X-Amz-Signature')).not.toBe(internal.searchParams.get('X-Amz-Signature'));

      const res = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body: payload });
      expect(res.status).toBe(200);
      // Head, get and list go to the internal endpoint.
      expect(await storage.head(key)).toMatchObject({ exists: true, size: payload.length });
      expect((await readAll((await storage.get(key)).body)).toString()).toBe('bytes from the browser');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
