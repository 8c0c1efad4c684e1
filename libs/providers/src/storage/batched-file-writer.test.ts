// The local adapter's streamed-put sink: every byte lands in order, once, whatever the batch and chunk
// sizes; a short writev is continued; a failing write fails the stream.
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBatchedFileWriter } from './batched-file-writer';

/** `total` bytes of a pattern that does not repeat at any power-of-two stride, in chunks of `chunkSize`. */
function patterned(total: number, chunkSize: number): { bytes: Buffer; stream: () => Readable } {
  const bytes = Buffer.alloc(total);
  for (let i = 0; i < total; i++) bytes[i] = (i * 7 + (i >> 9)) % 251;
  const stream = () => Readable.from((function* () {
    for (let at = 0; at < total; at += chunkSize) yield bytes.subarray(at, Math.min(at + chunkSize, total));
  })(), { objectMode: false });
  return { bytes, stream };
}

describe('createBatchedFileWriter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'batched-writer-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['chunks smaller than the batch', 300_001, 65_536, 100_000],
    ['chunks larger than the batch', 300_001, 70_000, 50_000],
    ['one byte at a time', 5_000, 1, 777],
    ['nothing at all', 0, 10, 100],
  ])('writes every byte in order and hashes them: %s', async (_label, total, chunkSize, batch) => {
    const { bytes, stream } = patterned(total, chunkSize);
    const file = path.join(dir, `${total}-${chunkSize}-${batch}.bin`);
    const handle = await open(file, 'wx');
    const md5 = createHash('md5');
    const writer = createBatchedFileWriter(handle, md5, batch);
    try {
      await pipeline(stream(), writer.stream);
    } finally {
      await handle.close();
    }
    expect(writer.size()).toBe(total);
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(md5.digest('hex')).toBe(createHash('md5').update(bytes).digest('hex'));
  });

  it('continues a writev that took fewer bytes than it was given', async () => {
    const written: Buffer[] = [];
    let calls = 0;
    // At most 1000 bytes per call, the way a kernel may shorten a write.
    const stingy = {
      async writev(buffers: Buffer[]) {
        calls++;
        const all = Buffer.concat(buffers).subarray(0, 1000);
        written.push(Buffer.from(all));
        return { bytesWritten: all.length, buffers };
      },
    } as unknown as FileHandle;
    const { bytes, stream } = patterned(12_345, 4_096);
    const writer = createBatchedFileWriter(stingy, createHash('md5'), 8_192);
    await pipeline(stream(), writer.stream);
    expect(Buffer.concat(written).equals(bytes)).toBe(true);
    // Two batches (8192 bytes, then the last 4153 at the end), each continued 1000 bytes at a time: 9 + 5 calls.
    expect(calls).toBe(14);
  });

  it('fails the stream when a write fails', async () => {
    const broken = { writev: async () => Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })) } as unknown as FileHandle;
    const { stream } = patterned(100_000, 10_000);
    const writer = createBatchedFileWriter(broken, createHash('md5'), 20_000);
    await expect(pipeline(stream(), writer.stream)).rejects.toMatchObject({ code: 'ENOSPC' });
  });
});
