// Recordings bench: the three media paths of core-api, each next to a baseline
// measured in the same run, so the figures read as ratios on a shared, noisy machine.
//  1. POST /api/recordings, multipart, an 8 MiB WAV: median answer time of 10 sequential uploads vs the
//     median of 10 local-adapter put()s of the same Buffer in this process (target <= 2x: parsing, type
//     sniffing and the row cost at most as much again as the write itself), and core-api's RSS growth
//     (VmRSS sampled every 50 ms) over its RSS after warm-up (target < 40 MB: the 8 MB body is held once).
//  2. GET /api/recordings/<id>/audio of a 200 MiB recording (made through presign -> direct PUT -> register)
//     with `Range: bytes=0-` and an open range from the middle, vs the local adapter's get() of the same
//     range of the same file in this process, best of 2 after a warm-up (target >= 70%: HTTP, no buffering).
//     A third figure in the same rounds: a bare node:http server in its own child process streaming the
//     same file range with fs.createReadStream (the adapter's read size) to the same client and sink. It is
//     the ceiling for any HTTP server on this machine, so core-api is also shown against it (>= 90%).
//  3. A BENCH_RECORDING_BIG_MB (default 500) direct upload on a second core-api configured for S3 (s3rver in
//     a child process): the bytes go from this process straight to s3rver; core-api's RSS growth and the
//     bytes it read (/proc/<pid>/io rchar, sockets included) during PUT + register show it never saw them,
//     and register (a HEAD of the object) takes milliseconds.
// CPU time per upload (core-api, /proc/<pid>/stat) vs per put (this process) is printed too: unlike wall
// time it does not move with the machine's load. Between uploads the bench waits (untimed) for core's job
// queue to drain (the ffmpeg duration/waveform probe), so no timed request competes with that analysis.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { createObjectStorage, type ByteRange } from '../../libs/providers/src/storage';
import { READ_CHUNK_BYTES } from '../../libs/providers/src/storage/local.adapter';
import { SERVICE_NODE_FLAGS } from '../../tools/bundle';
import { Cleanup, runBench } from '../lib/cleanup';
import { buildCoreApi, coreApiEnv, startCoreApi } from '../lib/core-api';
import { prepareDatabase } from '../lib/database';
import { freePort, ROOT } from '../lib/processes';
import { median, writeJson } from '../lib/report';

const MB = 1024 * 1024;
const UPLOAD_BYTES = 8 * MB;
const UPLOADS = 10;
const WARMUPS = 2;
const RANGED_BYTES = 200 * MB;
const BIG_MB = Number(process.env['BENCH_RECORDING_BIG_MB'] ?? 500);
const BUCKET = 'bench-recordings';
const RESULTS_FILE = path.join(ROOT, 'bench', 'results', 'recordings.json');
const say = (line: string) => process.stderr.write(`[bench:recordings] ${line}\n`);

// --- a real WAV: 44-byte RIFF/WAVE header, then 16-bit stereo 48 kHz PCM of a 440 Hz tone (1 s loops seamlessly)
const TONE = Buffer.alloc(48_000 * 4);
for (let i = 0; i < 48_000; i++) {
  const v = Math.round(Math.sin((2 * Math.PI * 440 * i) / 48_000) * 12_000);
  TONE.writeInt16LE(v, i * 4);
  TONE.writeInt16LE(v, i * 4 + 2);
}
function wavHeader(total: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii'); h.writeUInt32LE(total - 8, 4); h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16); h.writeUInt16LE(1, 20); h.writeUInt16LE(2, 22); h.writeUInt32LE(48_000, 24);
  h.writeUInt32LE(48_000 * 4, 28); h.writeUInt16LE(4, 32); h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii'); h.writeUInt32LE(total - 44, 40);
  return h;
}
/** `total` bytes of WAV, generated in 64 KB chunks: never held whole. */
function* wavChunks(total: number): Generator<Buffer> {
  yield wavHeader(total);
  for (let at = 0, left = total - 44; left > 0; ) {
    const n = Math.min(64 * 1024, left, TONE.length - at);
    yield TONE.subarray(at, at + n);
    left -= n;
    at = (at + n) % TONE.length;
  }
}
const wavBuffer = (total: number) => Buffer.concat([...wavChunks(total)]);

// --- core-api's memory and reads, from /proc
const procField = (pid: number, file: string, re: RegExp) => Number(re.exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))?.[1] ?? NaN);
const rssMB = (pid: number) => procField(pid, 'status', /VmRSS:\s+(\d+) kB/) / 1024;
const rchar = (pid: number) => procField(pid, 'io', /rchar:\s+(\d+)/);
/** CPU time (user + system) the process has used, ms (clock ticks of 10 ms). */
const cpuMs = (pid: number) => procField(pid, 'stat', /\) \S+(?: \S+){10} (\d+)/) * 10 + procField(pid, 'stat', /\) \S+(?: \S+){11} (\d+)/) * 10;
/** Samples VmRSS every 50 ms; the returned function stops and gives the peak in MB. */
function watchRss(pid: number): () => number {
  let peak = rssMB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 50);
  return () => (clearInterval(timer), Math.max(peak, rssMB(pid)));
}

// --- HTTP on fresh connections, timed from the request to the last byte of the answer
interface Answer { status: number; text: string; ms: number }
function send(method: string, url: string, headers: Record<string, string>, body?: Buffer | Readable): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body instanceof Readable) body.on('error', (e) => req.destroy(e)).pipe(req);
    else req.end(body);
  });
}
async function api<T>(method: string, url: string, token: string, body: unknown, expect: number): Promise<T & { ms: number }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const a = await send(method, url, headers, Buffer.from(JSON.stringify(body)));
  if (a.status !== expect) throw new Error(`${method} ${new URL(url).pathname} answered ${a.status}: ${a.text.slice(0, 300)}`);
  return { ...(JSON.parse(a.text) as T), ms: a.ms };
}
/** Pipe `source` into a sink that only counts bytes; seconds from `started`. */
async function drain(source: Readable, started: number): Promise<{ bytes: number; seconds: number }> {
  let bytes = 0;
  await pipeline(source, new Writable({ write: (c: Buffer, _e, done) => ((bytes += c.length), done()) }));
  return { bytes, seconds: (performance.now() - started) / 1000 };
}
function getStream(url: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get(url, { headers, agent: false }, resolve).once('error', reject));
}

/** Until core's job queue holds nothing running or due (the upload's duration/waveform analysis). */
async function jobsIdle(sql: postgres.Sql, timeoutMs = 300_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from jobs where queue = 'core' and (status = 'running' or (status = 'queued' and run_at <= now()))`;
    if (row?.n === 0) return;
  }
  throw new Error(`core jobs still running after ${timeoutMs / 1000} s`);
}

function startS3rver(dir: string, cleanup: Cleanup): Promise<number> {
  const script = `new (require('s3rver'))({ port: 0, address: '127.0.0.1', silent: true, directory: process.argv[1], configureBuckets: [{ name: '${BUCKET}' }] })
    .run().then((a) => process.stdout.write('PORT ' + a.port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add('stop s3rver', async () => void child.kill());
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
    child.stdout?.on('data', (d: Buffer) => { const m = /PORT (\d+)/.exec(d.toString()); if (m) resolve(Number(m[1])); });
  });
}

/**
 * The bare baseline of part 2: node:http alone, in its own process like core-api, answering any GET with
 * `Range: bytes=<start>-` of `file` as core-api does (206, Content-Range, Content-Length), streamed with
 * fs.createReadStream in chunks of the local adapter's read size. No framework, auth or database.
 */
function startBareFileServer(file: string, cleanup: Cleanup): Promise<{ port: number; pid: number }> {
  const script = `const fs = require('node:fs'), http = require('node:http');
    const [file, chunk] = [process.argv[1], Number(process.argv[2])];
    const size = fs.statSync(file).size;
    http.createServer((req, res) => {
      const start = Number(/^bytes=(\\d+)-$/.exec(req.headers.range || '')?.[1] ?? 0);
      res.writeHead(206, { 'content-type': 'audio/wav', 'content-length': String(size - start), 'content-range': 'bytes ' + start + '-' + (size - 1) + '/' + size, 'accept-ranges': 'bytes' });
      fs.createReadStream(file, { start, end: size - 1, highWaterMark: chunk }).on('error', (e) => res.destroy(e)).pipe(res);
    }).listen(0, '127.0.0.1', function () { process.stdout.write('PORT ' + this.address().port + '\\n'); });`;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '-e', script, file, String(READ_CHUNK_BYTES)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add('stop the bare file server', async () => void child.kill());
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare file server exited with ${code}`)));
    child.stdout?.on('data', (d: Buffer) => { const m = /PORT (\d+)/.exec(d.toString()); if (m) resolve({ port: Number(m[1]), pid: pidOf(child.pid) }); });
  });
}

function pidOf(pid: number | undefined): number {
  if (pid === undefined) throw new Error('a child process (core-api or the bare file server) has no pid');
  return pid;
}

interface Row { target: string; measured: string; baseline: string; ratio: string; goal: string; pass: boolean }
const f1 = (n: number) => n.toFixed(1);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;

/** presign -> PUT the generated bytes to uploadUrl (streamed) -> register; `beforePut` runs after presign. */
async function directUpload(base: string, token: string, size: number, title: string, urlPrefix: string, beforePut = () => undefined as void) {
  const p = await api<{ uploadUrl: string; key: string; ticket: string; headers: Record<string, string> }>('POST', `${base}/api/uploads/presign`, token, { fileName: `${title}.wav`, contentType: 'audio/wav', size }, 200);
  if (!p.uploadUrl.startsWith(urlPrefix)) throw new Error(`uploadUrl ${p.uploadUrl} does not start with ${urlPrefix}`);
  beforePut();
  const put = await send('PUT', p.uploadUrl, { ...p.headers, 'content-length': String(size) }, Readable.from(wavChunks(size)));
  if (put.status !== 200) throw new Error(`PUT ${p.uploadUrl} answered ${put.status}: ${put.text.slice(0, 300)}`);
  const reg = await api<{ recording: { id: string; original_file_size_bytes: number } }>('POST', `${base}/api/uploads/register`, token, { key: p.key, ticket: p.ticket, title }, 201);
  if (reg.recording.original_file_size_bytes !== size) throw new Error(`registered ${reg.recording.original_file_size_bytes} bytes, expected ${size}`);
  return { key: p.key, id: reg.recording.id, putMs: put.ms, registerMs: reg.ms };
}

async function main(cleanup: Cleanup): Promise<void> {
  if (!(BIG_MB > 0)) throw new Error(`BENCH_RECORDING_BIG_MB="${process.env['BENCH_RECORDING_BIG_MB']}": must be a positive number`);
  say('building core-api (esbuild bundle, as deployed)');
  await buildCoreApi();
  const db = await prepareDatabase(cleanup, say, 'bench_rec');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'story-bench-rec-'));
  cleanup.add('remove temp directory', async () => rmSync(tmp, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The 200 MiB recording and the big S3 upload are over the 50 MB default: raised for this run only.
  const env = { ...coreApiEnv(db.url, port, path.join(tmp, 'core-local')), MAX_STORED_FILE_BYTES: String(Math.max(BIG_MB, 200) * 1024 * 1024 + 1024 * 1024) };
  const core = await startCoreApi(env, base, cleanup);
  const pid = pidOf(core.service.child.pid);
  const sql = postgres(db.url, { max: 1, onnotice: () => undefined });
  cleanup.add('close bench connection', () => sql.end({ timeout: 5 }));
  const signup = await api<{ user: { id: string }; session: { access_token: string } }>('POST', `${base}/api/auth/signup`, '', {
    email: `bench-${randomBytes(6).toString('hex')}@example.test`, password: `bench-${randomBytes(6).toString('hex')}-1`, fullName: 'Bench User' }, 201);
  const token = signup.session.access_token;
  // Probed durations count against voice minutes (free: 30): family's 600 hold every upload of this run.
  await sql`update profiles set subscription_tier = 'family' where id = ${signup.user.id}`;
  const rows: Row[] = [];

  // 1. multipart upload vs a plain put of the same bytes
  const wav = wavBuffer(UPLOAD_BYTES);
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const multipart = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench upload\r\n--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="bench.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    wav, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const uploadCpu: number[] = [];
  const putCpu: number[] = [];
  const upload = async () => {
    const cpu = cpuMs(pid);
    const a = await send('POST', `${base}/api/recordings`, { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(multipart.length) }, multipart);
    const size = a.status === 201 ? (JSON.parse(a.text) as { recording: { original_file_size_bytes: number } }).recording.original_file_size_bytes : -1;
    if (size !== UPLOAD_BYTES) throw new Error(`POST /api/recordings answered ${a.status}: ${a.text.slice(0, 300)}`);
    uploadCpu.push(cpuMs(pid) - cpu);
    await jobsIdle(sql);
    return a.ms;
  };
  const plain = createObjectStorage({ driver: 'local', root: path.join(tmp, 'baseline') }, { publicBaseUrl: base });
  const put = async (i: number) => {
    const [t, cpu] = [performance.now(), process.cpuUsage()];
    await plain.put(`bench/put-${i}.wav`, wav, { contentType: 'audio/wav', contentLength: wav.length });
    const used = process.cpuUsage(cpu);
    putCpu.push((used.user + used.system) / 1000);
    return performance.now() - t;
  };
  say(`1. ${WARMUPS} warm-up uploads, then ${UPLOADS} uploads of ${UPLOAD_BYTES / MB} MiB interleaved with ${UPLOADS} local put()s`);
  for (let i = 0; i < WARMUPS; i++) {
    await put(-1 - i);
    await upload();
  }
  uploadCpu.length = putCpu.length = 0;
  const rssBefore = rssMB(pid);
  const stopRss = watchRss(pid);
  const putMs: number[] = [];
  const uploadMs: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    putMs.push(await put(i));
    uploadMs.push(await upload());
  }
  const rssPeak = stopRss();
  const [upMed, putMed] = [median(uploadMs), median(putMs)];
  rows.push({ target: '8 MiB multipart upload, median ms', measured: f1(upMed), baseline: `${f1(putMed)} (local put)`, ratio: `${(upMed / putMed).toFixed(2)}x`, goal: '<= 2x', pass: upMed <= 2 * putMed });
  if (process.env['BENCH_RECORDING_PARTS'] === 'upload') {
    // Part 1 alone (BENCH_RECORDING_PARTS=upload): the upload path's cost without the 200 MiB and S3 parts.
    process.stdout.write(`\n8 MiB multipart upload: median ${f1(upMed)} ms vs local put ${f1(putMed)} ms = ${(upMed / putMed).toFixed(2)}x (goal <= 2x); `);
    process.stdout.write(`CPU per upload (core-api, /proc): median ${f1(median(uploadCpu))} ms; RSS +${f1(rssPeak - rssBefore)} MB\n`);
    return;
  }
  rows.push({ target: '8 MiB uploads, core-api RSS growth', measured: `+${f1(rssPeak - rssBefore)} MB (peak ${f1(rssPeak)})`, baseline: `${f1(rssBefore)} MB after warm-up`, ratio: `${(rssPeak / rssBefore).toFixed(2)}x`, goal: '< +40 MB', pass: rssPeak - rssBefore < 40 });

  // 2. ranged GET of a 200 MiB recording vs the adapter's get() of the same range
  say(`2. direct upload of ${RANGED_BYTES / MB} MiB through core-api's local PUT route`);
  const ranged = await directUpload(base, token, RANGED_BYTES, 'ranged', `${base}/api/uploads/direct/`);
  await jobsIdle(sql);
  const store = createObjectStorage({ driver: 'local', root: path.join(tmp, 'core-local', 'storage') }, { publicBaseUrl: base });
  const bare = await startBareFileServer(path.join(tmp, 'core-local', 'storage', 'objects', ...ranged.key.split('/')), cleanup);
  const mid = Math.floor(RANGED_BYTES / 2);
  const stopRangedRss = watchRss(pid);
  const rangedResults: Record<string, unknown>[] = [];
  const bareRows: Row[] = [];
  /** GET `url` with the range, check the 206 answer, count it into the sink; seconds and the server's CPU ms. */
  const timedGet = async (url: string, headers: Record<string, string>, start: number, serverPid: number) => {
    const [t, cpu] = [performance.now(), cpuMs(serverPid)];
    const res = await getStream(url, { ...headers, range: `bytes=${start}-` });
    const expectRange = `bytes ${start}-${RANGED_BYTES - 1}/${RANGED_BYTES}`;
    if (res.statusCode !== 206 || res.headers['content-range'] !== expectRange) throw new Error(`ranged GET ${new URL(url).pathname} answered ${res.statusCode} ${res.headers['content-range']}`);
    return { ...(await drain(res, t)), cpu: cpuMs(serverPid) - cpu };
  };
  for (const start of [0, mid]) {
    const want = RANGED_BYTES - start;
    let [viaHttp, viaGet, viaBare, serverCpu, bareCpu] = [0, 0, 0, Infinity, Infinity];
    // Round 0 is a discarded warm-up (JIT of every end, page cache); then best of 2.
    for (let round = 0; round <= 2; round++) {
      const g = await drain((await store.get(ranged.key, { start } as ByteRange)).body, performance.now());
      const viaCore = () => timedGet(`${base}/api/recordings/${ranged.id}/audio`, { authorization: `Bearer ${token}` }, start, pid);
      const viaBareServer = () => timedGet(`http://127.0.0.1:${bare.port}/`, {}, start, bare.pid);
      // The two servers take turns going first, so neither always runs right after the in-process read.
      const bareFirst = round % 2 ? undefined : await viaBareServer();
      const h = await viaCore();
      const bareAnswer = bareFirst ?? (await viaBareServer());
      if (g.bytes !== want || h.bytes !== want || bareAnswer.bytes !== want) throw new Error(`range ${start}-: get() gave ${g.bytes}, HTTP ${h.bytes}, bare server ${bareAnswer.bytes} bytes, expected ${want}`);
      if (round === 0) continue;
      serverCpu = Math.min(serverCpu, h.cpu);
      bareCpu = Math.min(bareCpu, bareAnswer.cpu);
      viaGet = Math.max(viaGet, want / MB / g.seconds);
      viaHttp = Math.max(viaHttp, want / MB / h.seconds);
      viaBare = Math.max(viaBare, want / MB / bareAnswer.seconds);
    }
    rangedResults.push({ range: `bytes=${start}-`, bytes: want, httpMBs: viaHttp, getMBs: viaGet, bareHttpMBs: viaBare, coreApiCpuMs: serverCpu, bareServerCpuMs: bareCpu });
    rows.push({ target: `GET 200 MiB audio, Range bytes=${start}-, MB/s`, measured: f1(viaHttp), baseline: `${f1(viaGet)} (local get())`, ratio: pct(viaHttp / viaGet), goal: '>= 70%', pass: viaHttp >= 0.7 * viaGet });
    bareRows.push({ target: `GET 200 MiB audio vs bare node:http file server, Range bytes=${start}-, MB/s`, measured: f1(viaHttp), baseline: `${f1(viaBare)} (bare node:http)`, ratio: pct(viaHttp / viaBare), goal: '>= 90%', pass: viaHttp >= 0.9 * viaBare });
  }
  rows.push(...bareRows);
  const rangedPeak = stopRangedRss();
  // Only one core-api may run the shared job queue: the S3 one's job must not land on the local one.
  await core.service.stop();

  // 3. a big direct upload through S3 presigning: the bytes never pass through core-api
  const bigBytes = Math.round(BIG_MB * MB);
  const s3Port = await startS3rver(path.join(tmp, 's3rver'), cleanup);
  const port2 = await freePort();
  const base2 = `http://127.0.0.1:${port2}`;
  // Same database and JWT secret: the session signed up above is valid on this process too.
  const core2 = await startCoreApi({ ...env, CORE_API_PORT: String(port2), DATA_DIR: path.join(tmp, 'core-s3'), S3_BUCKET: BUCKET, S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' }, base2, cleanup);
  const pid2 = pidOf(core2.service.child.pid);
  say(`3. ${BIG_MB} MiB direct upload to s3rver (port ${s3Port}) presigned by a core-api on S3`);
  const s3Url = `http://127.0.0.1:${s3Port}/`;
  // Warm-up: the first S3 request of the process pays for the SDK's lazy set-up; the measured one should not.
  await directUpload(base2, token, MB, 'warm-up', s3Url);
  await jobsIdle(sql);
  let [rss2Before, rchar2Before, stopRss2] = [0, 0, () => 0];
  const big = await directUpload(base2, token, bigBytes, 'big', s3Url, () => {
    [rss2Before, rchar2Before, stopRss2] = [rssMB(pid2), rchar(pid2), watchRss(pid2)];
  });
  const [rss2Peak, readBytes] = [stopRss2(), rchar(pid2) - rchar2Before];
  const [s3Put, bigReg] = [{ ms: big.putMs }, { ms: big.registerMs }];
  rows.push({ target: `${BIG_MB} MiB direct upload: register, ms`, measured: f1(bigReg.ms), baseline: `${f1(s3Put.ms)} (PUT to s3rver)`, ratio: pct(bigReg.ms / s3Put.ms), goal: '< 500 ms', pass: bigReg.ms < 500 });
  rows.push({ target: `${BIG_MB} MiB direct upload: core-api RSS growth`, measured: `+${f1(rss2Peak - rss2Before)} MB (peak ${f1(rss2Peak)})`, baseline: `${BIG_MB} MB object`, ratio: pct((rss2Peak - rss2Before) / BIG_MB), goal: '< 10% of object', pass: rss2Peak - rss2Before < 0.1 * BIG_MB });
  rows.push({ target: `${BIG_MB} MiB direct upload: bytes core-api read`, measured: `${f1(readBytes / 1024)} KB`, baseline: `${BIG_MB} MB object`, ratio: pct(readBytes / bigBytes), goal: '< 1% of object', pass: readBytes < 0.01 * bigBytes });
  say('waiting for the S3 core-api to finish analysing the big recording before stopping it');
  await jobsIdle(sql);

  const header = ['target', 'measured', 'baseline (same run)', 'ratio', 'goal', 'result'];
  const cells = rows.map((r) => [r.target, r.measured, r.baseline, r.ratio, r.goal, r.pass ? 'PASS' : 'MISSED']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  process.stdout.write(`\n${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')}\n`);
  process.stdout.write(`(info) core-api peak RSS during the ranged GETs: ${f1(rangedPeak)} MB; core-api CPU per GET (least of 2): ${rangedResults.map((r) => `${String(r['coreApiCpuMs'])} ms`).join(', ')}; 200 MiB direct PUT through core-api: ${f1(ranged.putMs)} ms\n`);
  for (const r of rangedResults) {
    const [http_, get_, bare_] = [Number(r['httpMBs']), Number(r['getMBs']), Number(r['bareHttpMBs'])];
    process.stdout.write(`(info) Range ${String(r['range'])}: bare node:http file server: ${f1(bare_)} MB/s = ${pct(bare_ / get_)} of get(); core-api = ${pct(http_ / bare_)} of the bare server; CPU per GET (least of 2): core-api ${String(r['coreApiCpuMs'])} ms, bare server ${String(r['bareServerCpuMs'])} ms\n`);
  }
  process.stdout.write(`(info) CPU time per 8 MiB upload, core-api (/proc, 10 ms ticks): median ${f1(median(uploadCpu))} ms; per local put, bench process: median ${f1(median(putCpu))} ms\n`);
  writeJson(RESULTS_FILE, {
    finishedAt: new Date().toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() },
    database: db.server,
    upload: { bytes: UPLOAD_BYTES, uploadMs, putMs, medianUploadMs: upMed, medianPutMs: putMed, uploadCpuMs: uploadCpu, putCpuMs: putCpu, rssAfterWarmupMB: rssBefore, rssPeakMB: rssPeak },
    ranged: { bytes: RANGED_BYTES, directPutMs: ranged.putMs, rounds: 2, results: rangedResults, rssPeakMB: rangedPeak },
    direct: { bytes: bigBytes, s3PutMs: s3Put.ms, registerMs: bigReg.ms, rssBeforeMB: rss2Before, rssPeakMB: rss2Peak, rcharBytes: readBytes },
    checks: rows,
  });
  say(`results written to ${path.relative(ROOT, RESULTS_FILE)}`);
}

runBench(async (cleanup) => (await main(cleanup), 0), say);
