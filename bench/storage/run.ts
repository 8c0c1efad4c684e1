// Storage streaming bench: a BENCH_STORAGE_MB (default 500) object read through ObjectStorage.get() on
// both adapters, next to the raw read rate of the very same bytes on disk measured in the same run.
// s3rver runs in a child process, so this process's RSS is the app's side of the stream only.
// Targets: peak RSS while streaming < 150 MB; get() at >= 70% of the raw read rate. See README.md.
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { spawn, type ChildProcess } from 'node:child_process';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createObjectStorage, type ObjectStorage } from '../../libs/providers/src/storage';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env['BENCH_STORAGE_MB'] ?? 500);
const ROUNDS = 2; // best of two: the first read of each kind may still warm caches
const RSS_LIMIT_MB = 150;
const RATIO_TARGET = 0.7;
const KEY = 'bench/object.bin';
const BUCKET = 'bench-bucket';

const say = (line: string) => process.stderr.write(`[bench:storage] ${line}\n`);

/** `total` bytes in 64 KB chunks, each stamped with its offset so chunks differ. */
function generated(total: number): Readable {
  const pattern = Buffer.alloc(64 * 1024);
  for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const chunk = Buffer.from(pattern.subarray(0, Math.min(pattern.length, total - sent)));
      if (chunk.length >= 8) chunk.writeBigUInt64BE(BigInt(sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** Time piping `source` into a sink that only counts bytes. */
async function drain(source: Readable): Promise<{ bytes: number; seconds: number }> {
  let bytes = 0;
  const started = process.hrtime.bigint();
  await pipeline(
    source,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  return { bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

class RssSampler {
  private peak = 0;
  private timer?: NodeJS.Timeout;
  start(): void {
    this.peak = process.memoryUsage().rss;
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, process.memoryUsage().rss)), 100);
  }
  stop(): number {
    clearInterval(this.timer);
    return Math.max(this.peak, process.memoryUsage().rss) / MB;
  }
}

/** s3rver in its own process, on a free port; resolves with the port. */
function startS3rver(directory: string): Promise<{ child: ChildProcess; port: number }> {
  const script = `
    const S3rver = require('s3rver');
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[1], configureBuckets: [{ name: '${BUCKET}' }] })
      .run().then((a) => process.stdout.write('PORT ' + a.port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script, directory], { cwd: path.join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
    child.stdout?.on('data', (data: Buffer) => {
      const match = /PORT (\d+)/.exec(data.toString());
      if (match) resolve({ child, port: Number(match[1]) });
    });
  });
}

interface Result {
  adapter: string;
  rawMBs: number;
  getMBs: number;
  peakRssMB: number;
  /** RSS before the reads began (Node, tsx, the AWS SDK loaded). */
  baselineRssMB: number;
  httpMBs?: number;
}

/** For s3 only, informational: the same bytes over plain HTTP from the same server, no SDK in the way. */
type HttpSource = () => Promise<Readable>;

async function measure(adapter: string, storage: ObjectStorage, rawFile: string, total: number, http?: HttpSource): Promise<Result> {
  say(`${adapter}: writing ${SIZE_MB} MB (streamed)`);
  const put = await storage.put(KEY, generated(total), { contentType: 'application/octet-stream', contentLength: total });
  if (put.size !== total) throw new Error(`${adapter}: put stored ${put.size} bytes, expected ${total}`);
  let raw = 0;
  let viaGet = 0;
  let peak = 0;
  const baseline = process.memoryUsage().rss / MB;
  let httpRate = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const r = await drain(createReadStream(rawFile));
    if (r.bytes !== total) throw new Error(`${adapter}: raw read gave ${r.bytes} bytes`);
    raw = Math.max(raw, r.bytes / MB / r.seconds);
    global.gc?.();
    const sampler = new RssSampler();
    sampler.start();
    const object = await storage.get(KEY);
    const g = await drain(object.body);
    peak = Math.max(peak, sampler.stop());
    if (g.bytes !== total) throw new Error(`${adapter}: get() gave ${g.bytes} bytes`);
    viaGet = Math.max(viaGet, g.bytes / MB / g.seconds);
    if (http) {
      const h = await drain(await http());
      if (h.bytes !== total) throw new Error(`${adapter}: plain HTTP gave ${h.bytes} bytes`);
      httpRate = Math.max(httpRate, h.bytes / MB / h.seconds);
    }
    say(`${adapter} round ${round}: raw ${(r.bytes / MB / r.seconds).toFixed(0)} MB/s, get ${(g.bytes / MB / g.seconds).toFixed(0)} MB/s`);
  }
  await storage.delete(KEY);
  return { adapter, rawMBs: raw, getMBs: viaGet, peakRssMB: peak, baselineRssMB: baseline, ...(http ? { httpMBs: httpRate } : {}) };
}

function report(results: Result[]): boolean {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISSED');
  let allPass = true;
  console.log(`\nStorage streaming bench: ${SIZE_MB} MB object, best of ${ROUNDS} rounds, Node ${process.version}\n`);
  console.log('adapter | raw read MB/s | get() MB/s | ratio | RSS before reads | peak RSS during get() | RSS < 150 MB | ratio >= 70%');
  console.log('--- | ---: | ---: | ---: | ---: | ---: | --- | ---');
  for (const r of results) {
    const ratio = r.getMBs / r.rawMBs;
    const rssOk = r.peakRssMB < RSS_LIMIT_MB;
    const ratioOk = ratio >= RATIO_TARGET;
    allPass &&= rssOk && ratioOk;
    console.log(`${r.adapter} | ${r.rawMBs.toFixed(0)} | ${r.getMBs.toFixed(0)} | ${(ratio * 100).toFixed(0)}% | ${r.baselineRssMB.toFixed(0)} MB | ${r.peakRssMB.toFixed(0)} MB | ${verdict(rssOk)} | ${verdict(ratioOk)}`);
  }
  for (const r of results) {
    if (r.httpMBs !== undefined) {
      console.log(`\n(info) ${r.adapter}: plain http.get of a presigned URL from the same server: ${r.httpMBs.toFixed(0)} MB/s; get() reaches ${((r.getMBs / r.httpMBs) * 100).toFixed(0)}% of that.`);
    }
  }
  return allPass;
}

async function main(): Promise<number> {
  if (!Number.isFinite(SIZE_MB) || SIZE_MB <= 0) throw new Error(`BENCH_STORAGE_MB="${process.env['BENCH_STORAGE_MB']}": must be a positive number`);
  const total = Math.round(SIZE_MB * MB);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-storage-'));
  let s3rver: ChildProcess | undefined;
  const stop = () => {
    s3rver?.kill();
    return rm(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    const results: Result[] = [];

    const localRoot = path.join(dir, 'local');
    const local = createObjectStorage({ driver: 'local', root: localRoot }, { publicBaseUrl: 'http://127.0.0.1:3000' });
    results.push(await measure('local', local, path.join(localRoot, 'objects', ...KEY.split('/')), total));

    const s3Dir = path.join(dir, 's3rver');
    const started = await startS3rver(s3Dir);
    s3rver = started.child;
    const s3 = createObjectStorage(
      { driver: 's3', bucket: BUCKET, endpoint: `http://127.0.0.1:${started.port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
      { publicBaseUrl: 'http://127.0.0.1:3000' },
    );
    // s3rver keeps an object's bytes in <dir>/<bucket>/<key>._S3rver_object: the raw read of the same bytes.
    const sdk = new S3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${started.port}`, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const http: HttpSource = async () => {
      const url = await getSignedUrl(sdk, new GetObjectCommand({ Bucket: BUCKET, Key: KEY }), { expiresIn: 600 });
      return new Promise<IncomingMessage>((resolve, reject) => httpGet(url, resolve).once('error', reject));
    };
    results.push(await measure('s3 (s3rver)', s3, path.join(s3Dir, BUCKET, `${KEY}._S3rver_object`), total, http));

    return report(results) ? 0 : 1;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
