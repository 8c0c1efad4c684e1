// The local adapter's sink for streamed puts: one Writable that hashes, counts and writes the bytes, in
// batches of WRITE_BATCH_BYTES with one writev each. A socket-fed body (an upload) arrives in 64 KiB chunks;
// written one by one that is ~128 thread-pool round trips per 8 MiB, which cost the event loop more than
// the copy itself, and a separate hashing Transform was one more stream hop per chunk.
import type { Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Bytes gathered before one writev: large enough that the per-call cost vanishes, small enough to hold. */
export const WRITE_BATCH_BYTES = 1024 * 1024;

/** writev until every byte is down (a regular file may, in principle, take fewer bytes than asked). */
async function writeAll(file: FileHandle, buffers: Buffer[]): Promise<void> {
  while (buffers.length > 0) {
    let { bytesWritten } = await file.writev(buffers);
    while (buffers.length > 0 && bytesWritten >= buffers[0]!.length) bytesWritten -= buffers.shift()!.length;
    if (bytesWritten > 0) buffers[0] = buffers[0]!.subarray(bytesWritten);
  }
}

export interface BatchedFileWriter {
  stream: Writable;
  /** Bytes received so far (all of them once the stream has finished). */
  size(): number;
}

/**
 * A Writable into `file` (appending at its current position) that feeds every chunk to `hash` in order.
 * The caller closes `file`: FileHandle.close waits for a writev still in flight, so closing after an error
 * cannot race a write.
 */
export function createBatchedFileWriter(file: FileHandle, hash: Hash, batchBytes = WRITE_BATCH_BYTES): BatchedFileWriter {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  const flush = (done: (err?: Error | null) => void) => {
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    if (batch.length === 0) return done();
    writeAll(file, batch).then(() => done(), done);
  };
  const stream = new Writable({
    // Lets the source keep a batch coming while the previous one is being written.
    highWaterMark: batchBytes,
    writev(chunks, done) {
      for (const { chunk } of chunks as { chunk: Buffer }[]) {
        hash.update(chunk);
        size += chunk.length;
        pending.push(chunk);
        pendingBytes += chunk.length;
      }
      if (pendingBytes < batchBytes) return done();
      flush(done);
    },
    final: flush,
  });
  return { stream, size: () => size };
}
