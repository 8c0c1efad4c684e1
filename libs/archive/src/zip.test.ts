import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import { createZipStream, zipLength, type ZipEntry } from './zip';

const run = promisify(execFile);
const mtime = new Date('2026-01-02T03:04:06Z');

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function entriesOf(files: Record<string, Buffer>, opened: string[] = [], withCrc = false): ZipEntry[] {
  return Object.entries(files).map(([name, data]) => ({
    name,
    size: data.length,
    crc32: withCrc ? zlib.crc32(data) : undefined,
    async open(offset: number) {
      opened.push(`${name}@${offset}`);
      return Readable.from([data.subarray(offset)]);
    },
  }));
}

async function readWithYauzl(zip: Buffer): Promise<Record<string, Buffer>> {
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
  const out: Record<string, Buffer> = {};
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) => {
      zipfile.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        collect(stream).then((b) => {
          out[entry.fileName] = b;
          zipfile.readEntry();
        }, reject);
      });
    });
    zipfile.on('end', resolve);
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  return out;
}

const files = {
  'README.txt': Buffer.from('hello\n'),
  'photos/a.jpg': randomBytes(300_000),
  'recordings/2026-01-01-Grandma.mp3': randomBytes(1_234_567),
  'stories/01-Café.html': Buffer.from('<p>Ünïcode</p>'),
  'empty.txt': Buffer.alloc(0),
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'zip-test-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('knows its exact length before reading, and the bytes pass unzip -t and yauzl', async () => {
  const length = zipLength(entriesOf(files), { mtime });
  const zip = await collect(createZipStream(entriesOf(files), { mtime }));
  expect(zip.length).toBe(length);
  const file = path.join(dir, 'a.zip');
  await writeFile(file, zip);
  const { stdout } = await run('unzip', ['-t', file]);
  expect(stdout).toMatch(/No errors detected/);
  const read = await readWithYauzl(zip);
  expect(Object.keys(read)).toEqual(Object.keys(files));
  for (const [name, data] of Object.entries(files)) expect(read[name]!.equals(data)).toBe(true);
});

it('gives the same bytes every time (fixed mtime, store mode)', async () => {
  const a = await collect(createZipStream(entriesOf(files), { mtime }));
  const b = await collect(createZipStream(entriesOf(files, [], true), { mtime }));
  expect(a.equals(b)).toBe(true);
});

it('serves any byte range equal to the slice of the whole, without opening entries before it when their CRC is known', async () => {
  const whole = await collect(createZipStream(entriesOf(files), { mtime }));
  for (const start of [0, 1, 29, 31, 300_100, 900_000, whole.length - 200, whole.length - 1]) {
    const opened: string[] = [];
    const part = await collect(createZipStream(entriesOf(files, opened, true), { mtime, range: { start } }));
    expect(part.equals(whole.subarray(start))).toBe(true);
    if (start === 900_000) expect(opened).toEqual(['recordings/2026-01-01-Grandma.mp3@' + String(900_000 - whole.indexOf(files['recordings/2026-01-01-Grandma.mp3'].subarray(0, 64))), 'stories/01-Café.html@0', 'empty.txt@0']);
    if (start === whole.length - 200) expect(opened).toEqual([]);
  }
  const middle = await collect(createZipStream(entriesOf(files, [], true), { mtime, range: { start: 100, end: 5000 } }));
  expect(middle.equals(whole.subarray(100, 5001))).toBe(true);
});

it('reports each streamed entry checksum, the same as zlib computes', async () => {
  const seen: Record<number, number> = {};
  await collect(createZipStream(entriesOf(files), { mtime, onEntryChecksum: (i, crc) => (seen[i] = crc) }));
  expect(seen).toEqual(Object.fromEntries(Object.values(files).map((d, i) => [i, zlib.crc32(d)])));
});

it('fails the stream when an entry cannot be opened or has the wrong size', async () => {
  const broken: ZipEntry[] = [{ name: 'x.bin', size: 10, open: async () => Promise.reject(new Error('gone')) }];
  await expect(collect(createZipStream(broken, { mtime }))).rejects.toThrow('gone');
  const short: ZipEntry[] = [{ name: 'x.bin', size: 10, open: async () => Readable.from([Buffer.alloc(5)]) }];
  await expect(collect(createZipStream(short, { mtime }))).rejects.toThrow(/unexpected number of bytes/);
});
