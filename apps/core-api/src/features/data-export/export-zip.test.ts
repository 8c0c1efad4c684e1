// The data export zip on its own: entries in order, a bounded number of sources open ahead, a missing file
// named in the manifest, every source closed when the consumer goes away, and archives that `unzip -t`
// (which checks every CRC) accepts with native CRC-32 routing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { streamZip, useNativeCrc32, type ZipEntrySource } from './export-zip';

const execFileAsync = promisify(execFile);

describe('CRC-32 routing', () => {
  it('gives the same checksums as the specification, chained or whole', () => {
    expect(useNativeCrc32()).toBe(true);
    const crc = require('buffer-crc32') as { unsigned(b: Buffer | string, p?: number): number };
    expect(crc.unsigned(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc.unsigned('123456789')).toBe(0xcbf43926);
    const a = randomBytes(70_000);
    const b = randomBytes(33_333);
    expect(crc.unsigned(b, crc.unsigned(a))).toBe(crc.unsigned(Buffer.concat([a, b])));
  });
});

describe('streamZip', () => {
  let dir: string;
  beforeAll(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'export-zip-'))));
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('writes every entry in order, opening at most openAhead sources ahead, and unzip -t accepts it', async () => {
    let open = 0;
    let maxOpen = 0;
    const payloads = Array.from({ length: 6 }, (_, i) => randomBytes(100_000 + i * 7_919));
    const source = (buf: Buffer): Readable => {
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      const r = Readable.from([buf.subarray(0, 50_000), buf.subarray(50_000)]);
      r.on('end', () => (open -= 1));
      return r;
    };
    const entries: ZipEntrySource[] = [
      { name: 'data.json', compress: true, open: async () => Readable.from([JSON.stringify({ hello: 'wörld' })]) },
      ...payloads.map((buf, i) => ({ name: `media/file-${i}.bin`, compress: false, open: async () => source(buf) })),
      { name: 'media/gone.bin', open: async () => Promise.reject(new Error('not found')) },
    ];
    const file = path.join(dir, 'a.zip');
    const zip = streamZip(entries, (o) => ({ missing: o.missing }), { openAhead: 2 });
    const [, outcome] = await Promise.all([pipeline(zip.stream, createWriteStream(file)), zip.done]);
    // The one being written and two opened ahead of it; never more, and every one read to its end.
    expect(maxOpen).toBe(3);
    expect(open).toBe(0);
    expect(outcome).toEqual({ entries: 8, missing: [{ name: 'media/gone.bin', reason: 'not found' }] });
    const { stdout } = await execFileAsync('unzip', ['-t', file]);
    expect(stdout).toMatch(/No errors detected/);
    const list = (await execFileAsync('unzip', ['-Z1', file])).stdout.trim().split('\n');
    expect(list).toEqual(['data.json', ...payloads.map((_, i) => `media/file-${i}.bin`), 'manifest.json']);
    const manifest = (await execFileAsync('unzip', ['-p', file, 'manifest.json'])).stdout;
    expect(JSON.parse(manifest).missing[0].name).toBe('media/gone.bin');
  });

  it('closes the source being written and those opened ahead when the consumer goes away', async () => {
    const sources: Readable[] = [];
    let opens = 0;
    const entries: ZipEntrySource[] = Array.from({ length: 40 }, (_, i) => ({
      name: `media/${i}.bin`,
      compress: false,
      open: async () => {
        opens += 1;
        // Endless, so the zip is still mid-way through an entry when the consumer leaves.
        const s = new Readable({ read() { this.push(randomBytes(64 * 1024)); } });
        sources.push(s);
        return s;
      },
    }));
    const zip = streamZip(entries, () => ({}), { openAhead: 4 });
    let received = 0;
    await new Promise<void>((resolve) => {
      zip.stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > 1024 * 1024) {
          zip.stream.destroy();
          resolve();
        }
      });
    });
    await expect(zip.done).rejects.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(opens).toBe(5);
    expect(sources.every((s) => s.destroyed)).toBe(true);
  });

  it('opens again a source that failed while waiting its turn (nothing of it was written yet)', async () => {
    const payloads = Array.from({ length: 3 }, (_, i) => randomBytes(300_000 + i));
    const opens = [0, 0, 0];
    const entries: ZipEntrySource[] = payloads.map((buf, i) => ({
      name: `media/${i}.bin`,
      compress: false,
      open: async () => {
        opens[i]! += 1;
        const r = Readable.from([buf.subarray(0, 100_000), buf.subarray(100_000)]);
        // The third file's first stream dies while the first is still being written (an idle timeout).
        if (i === 2 && opens[i] === 1) setImmediate(() => r.destroy(new Error('socket timeout')));
        return r;
      },
    }));
    const file = path.join(dir, 'c.zip');
    const zip = streamZip(entries, (o) => ({ missing: o.missing }), { openAhead: 4 });
    // A slow consumer, so the third file waits long enough for its first stream to die.
    const slow = new Transform({ transform: (c: Buffer, _e, done) => setTimeout(() => done(null, c), 5) });
    const [, outcome] = await Promise.all([pipeline(zip.stream, slow, createWriteStream(file)), zip.done]);
    expect(opens).toEqual([1, 1, 2]);
    expect(outcome).toEqual({ entries: 4, missing: [] });
    expect((await execFileAsync('unzip', ['-t', file])).stdout).toMatch(/No errors detected/);
    expect(Buffer.from((await execFileAsync('unzip', ['-p', file, 'media/2.bin'], { encoding: 'buffer', maxBuffer: 1 << 22 })).stdout).equals(payloads[2]!)).toBe(true);
  });

  it('fails the stream when a source breaks mid-way (the consumer discards the file)', async () => {
    // Data is pushed by hand below; read() has nothing more to give.
    const broken = new Readable({ read: () => undefined });
    broken.push(randomBytes(1000));
    setImmediate(() => broken.destroy(new Error('disk error')));
    const zip = streamZip([{ name: 'x.bin', open: async () => broken }], () => ({}));
    await expect(Promise.all([pipeline(zip.stream, createWriteStream(path.join(dir, 'b.zip'))), zip.done])).rejects.toThrow(/disk error/);
  });
});
