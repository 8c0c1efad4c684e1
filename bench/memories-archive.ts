// Memories and archive bench (spec 000 Memories and archive), every figure next to a baseline of the same run:
//  1. GET /api/memories for one storyteller holding 100,000 memories across the five sources (plus another
//     storyteller's 20,000 rows as noise) on real PostgreSQL: p95 of page 0, page 400, the cursor at page
//     400 and a cursor at the last page (~4,166), sequential requests on one keep-alive connection, next to
//     GET /health (one `select 1`) measured the same way. Targets: each p95 < 50 ms; deep cursor p95 within
//     2x of page 0. The plan of the page-400 query is printed (EXPLAIN ANALYZE).
//  2. An archive of BENCH_ARCHIVE_MB (default 2048) of 50 MB recordings, downloaded as its parts (each at
//     most 1 GB): MB/s over all parts vs the raw read rate of the same files through the same storage
//     adapter in this process (best of two passes, one before and one after); core-api's peak RSS (VmRSS
//     every 50 ms) and time to the first byte of each part. Targets: >= 80% of raw, < 150 MB, < 1 s. A second
//     baseline streams the same files through core-api's plain media route (same HTTP path, no zip), which
//     separates the zip's cost from HTTP's on this machine.
// Run: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx --tsconfig tsconfig.base.json bench/memories-archive.ts
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import postgres from 'postgres';
import { createObjectStorage } from '../libs/providers/src/storage';
import { createCursorCodec } from '../apps/core-api/src/features/memories/memories.cursor';
import { Cleanup, runBench } from './lib/cleanup';
import { buildCoreApi, coreApiEnv, startCoreApi } from './lib/core-api';
import { prepareDatabase } from './lib/database';
import { freePort, ROOT } from './lib/processes';
import { writeJson } from './lib/report';

const MB = 1024 * 1024;
const ARCHIVE_MB = Number(process.env['BENCH_ARCHIVE_MB'] ?? 2048);
const FILE_MB = 50;
const REQUESTS = Number(process.env['BENCH_MEMORIES_REQUESTS'] ?? 200);
const say = (line: string) => process.stderr.write(`[bench:memories] ${line}\n`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
        res.on('error', reject);
      })
      .once('error', reject);
  });
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function latency(url: string, headers: Record<string, string>, check: (body: string) => void): Promise<number> {
  for (let i = 0; i < 20; i++) check((await get(url, headers)).body);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await get(url, headers);
    if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${r.body.slice(0, 200)}`);
    times.push(r.ms);
  }
  return p95(times);
}

/** 100,000 memories of `owner` across the five sources, with times spread over ten years; 20,000 of `other`. */
async function seedMemories(sql: postgres.Sql, owner: string, other: string): Promise<void> {
  const t = (n: postgres.PendingQuery<postgres.Row[]>) => sql`timestamp '2016-01-01' + (${n}) * interval '53 minutes'`;
  await sql`insert into recordings (user_id, title, storage_key, mime_type, media_type, original_file_size_bytes, duration_seconds, status, created_at, updated_at)
    select ${owner}, 'Audio ' || g, 'bench/none/' || g, 'audio/mpeg', 'audio', 100000, 60, 'completed', ${t(sql`g`)}, ${t(sql`g`)} from generate_series(1, 40000) g`;
  await sql`insert into recordings (user_id, title, storage_key, mime_type, media_type, original_file_size_bytes, duration_seconds, status, created_at, updated_at)
    select ${owner}, 'Video ' || g, 'bench/none/v' || g, 'video/mp4', 'video', 900000, 30, 'completed', ${t(sql`g * 4 + 1`)}, ${t(sql`g * 4 + 1`)} from generate_series(1, 10000) g`;
  await sql`insert into images (user_id, storage_key, kind, mime_type, size_bytes, title, created_at, updated_at)
    select ${owner}, 'bench/none/i' || g, case when g % 5 = 0 then 'art' else 'photo' end, 'image/jpeg', 200000, 'Photo ' || g,
           (${t(sql`g * 1.6 + 2`)}) at time zone 'UTC', (${t(sql`g * 1.6 + 2`)}) at time zone 'UTC' from generate_series(1, 25000) g`;
  await sql`insert into stories (user_id, title, content, word_count, created_at, updated_at)
    select ${owner}, 'Story ' || g, '<p>Words.</p>', 1, ${t(sql`g * 1.6 + 3`)}, ${t(sql`g * 1.6 + 3`)} from generate_series(1, 24900) g`;
  // 50 books, each with its newest completed interior and cover (100 cards) and two older ones each.
  await sql`insert into books (user_id, title, created_at) select ${owner}, 'Book ' || g, ${t(sql`g * 700`)} from generate_series(1, 50) g`;
  await sql`insert into export_jobs (user_id, book_id, kind, status, storage_key, size_bytes, completed_at, created_at)
    select ${owner}, b.id, k.kind, 'completed', 'bench/none/pdf', 5000000,
           (b.created_at + v.n * interval '1 day') at time zone 'UTC', (b.created_at + v.n * interval '1 day') at time zone 'UTC'
      from books b cross join (values ('interior'), ('cover')) k(kind) cross join generate_series(0, 2) v(n) where b.user_id = ${owner}`;
  await sql`insert into recordings (user_id, title, storage_key, mime_type, media_type, status, created_at, updated_at)
    select ${other}, 'Noise ' || g, 'bench/none/n' || g, 'audio/mpeg', 'audio', 'completed', ${t(sql`g`)}, ${t(sql`g`)} from generate_series(1, 10000) g`;
  await sql`insert into stories (user_id, title, content, created_at, updated_at)
    select ${other}, 'Noise ' || g, '<p>x</p>', ${t(sql`g`)}, ${t(sql`g`)} from generate_series(1, 10000) g`;
  await sql`vacuum analyze recordings, images, stories, books, export_jobs`;
}

async function signUpAccount(base: string, name: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name}-${randomBytes(4).toString('hex')}@example.test`, password: 'bench-password-1', fullName: name }),
  });
  const body = (await res.json()) as { user: { id: string }; session: { access_token: string } };
  return { id: body.user.id, token: body.session.access_token };
}

async function main(cleanup: Cleanup): Promise<number> {
  const db = await prepareDatabase(cleanup, say, 'bench_memories');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-memories-'));
  cleanup.add('remove data dir', async () => rmSync(dataDir, { recursive: true, force: true }));
  say('building core-api');
  buildCoreApi();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = coreApiEnv(db.url, port, dataDir);
  const core = await startCoreApi(env, base, cleanup);
  const pid = core.service.child.pid!;
  const rssAtStart = rssMB(pid);
  const sql = postgres(db.url, { max: 2, onnotice: () => undefined });
  cleanup.add('close bench pool', () => sql.end({ timeout: 5 }));

  // --- 1. the memories list
  const owner = await signUpAccount(base, 'Storyteller');
  const other = await signUpAccount(base, 'Neighbour');
  say('seeding 100,000 memories');
  await seedMemories(sql, owner.id, other.id);
  const headers = { authorization: `Bearer ${owner.token}` };
  const [{ n }] = await sql<{ n: number }[]>`
    select (select count(*) from recordings where user_id = ${owner.id}) + (select count(*) from images where user_id = ${owner.id})
         + (select count(*) from stories where user_id = ${owner.id}) + (select count(*) from books where user_id = ${owner.id}) * 2 as n`;
  if (Number(n) !== 100_000) throw new Error(`seeded ${n} memories, expected 100000`);
  const cursors = createCursorCodec(env['JWT_SECRET']!);
  const keyAt = async (index: number) => {
    const page = Math.floor(index / 24);
    const res = JSON.parse((await get(`${base}/api/memories?page=${page}`, headers)).body) as { items: { id: string; date: string }[] };
    const last = res.items[res.items.length - 1]!;
    // The card date has milliseconds; the seeded times are whole minutes, so microseconds are zero.
    return { page: page + 1, cursor: cursors.encode({ s: owner.id, f: 'All', p: page + 1, t: last.date.replace('Z', '000Z'), i: last.id }) };
  };
  const full = (body: string) => {
    const parsed = JSON.parse(body) as { items: unknown[] };
    if (parsed.items.length !== 24) throw new Error(`a page held ${parsed.items.length} items`);
  };
  const at400 = await keyAt(400 * 24 - 1);
  const deep = await keyAt(100_000 - 30);
  // The cursor at page 400 must continue exactly where page 400 starts.
  const viaPage = JSON.parse((await get(`${base}/api/memories?page=400`, headers)).body) as { items: { id: string }[] };
  const viaCursor = JSON.parse((await get(`${base}/api/memories?cursor=${encodeURIComponent(at400.cursor)}`, headers)).body) as { items: { id: string }[] };
  if (JSON.stringify(viaPage.items.map((i) => i.id)) !== JSON.stringify(viaCursor.items.map((i) => i.id))) throw new Error('cursor and page 400 differ');

  say(`timing ${REQUESTS} requests each`);
  const health = await latency(`${base}/health`, {}, () => undefined);
  const page0 = await latency(`${base}/api/memories?page=0`, headers, full);
  const page400 = await latency(`${base}/api/memories?page=400`, headers, full);
  const cursor400 = await latency(`${base}/api/memories?cursor=${encodeURIComponent(at400.cursor)}`, headers, full);
  const cursorDeep = await latency(`${base}/api/memories?cursor=${encodeURIComponent(deep.cursor)}`, headers, () => undefined);
  const list = { health, page0, page400, cursor400, cursorDeep, deepPage: deep.page };

  // --- 2. the archive
  const archivist = await signUpAccount(base, 'Archivist');
  const storage = createObjectStorage({ driver: 'local', root: path.join(dataDir, 'storage') }, { publicBaseUrl: base });
  const files = Math.ceil(ARCHIVE_MB / FILE_MB);
  say(`storing ${files} files of ${FILE_MB} MB`);
  const chunk = randomBytes(MB);
  const keys: string[] = [];
  const recordingIds: string[] = [];
  for (let i = 0; i < files; i++) {
    const key = `bench/archive/${i}.mp3`;
    const size = Math.min(FILE_MB, ARCHIVE_MB - i * FILE_MB) * MB;
    await storage.put(key, Readable.from((function* () { for (let s = 0; s < size; s += MB) yield chunk.subarray(0, Math.min(MB, size - s)); })()), { contentLength: size });
    keys.push(key);
    const [made] = await sql<{ id: string }[]>`insert into recordings (user_id, title, storage_key, mime_type, media_type, original_file_size_bytes, status, created_at, updated_at)
      values (${archivist.id}, ${`Take ${i}`}, ${key}, 'audio/mpeg', 'audio', ${size}, 'completed', now() - ${files - i} * interval '1 minute', now() - ${files - i} * interval '1 minute')
      returning id`;
    recordingIds.push(made!.id);
  }
  const rawRead = async () => {
    const started = performance.now();
    let bytes = 0;
    for (const key of keys) {
      const object = await storage.get(key);
      await pipeline(object.body, new Writable({ write: (c: Buffer, _e, done) => ((bytes += c.length), done()) }));
    }
    return bytes / MB / ((performance.now() - started) / 1000);
  };
  // The archive runs on a fresh core-api process: its RSS then shows what streaming costs, not what the
  // 100,000-row list phase left in the heap (printed too).
  const rssAfterList = rssMB(pid);
  await core.service.stop();
  const fresh = await startCoreApi(env, base, cleanup);
  const pid2 = fresh.service.child.pid!;
  const opened = await fetch(`${base}/api/account/archive`, { method: 'POST', headers: { authorization: `Bearer ${archivist.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ storytellerId: archivist.id }) });
  const job = (await opened.json()) as { job: { id: string }; parts: { part: string; downloadUrl: string }[]; singleZip: boolean };
  say(`archive parts: ${job.parts.map((p) => p.part).join(', ')}`);
  const rssBefore = rssMB(pid2);
  let peak = rssBefore;
  const timer = setInterval(() => (peak = Math.max(peak, rssMB(pid2))), 50);
  const firstBytes: number[] = [];
  /** GET each path in turn, checking every answer is whole; MB/s over all of them. */
  const fetchAll = async (paths: string[], onFirstByte?: (ms: number) => void) => {
    const started = performance.now();
    let bytes = 0;
    for (const url of paths) {
      const t0 = performance.now();
      bytes += await new Promise<number>((resolve, reject) => {
        http.get(`${base}${url}`, { headers: { authorization: `Bearer ${archivist.token}` }, agent: false }, (res) => {
          if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
          const length = Number(res.headers['content-length']);
          let got = 0;
          res.once('data', () => onFirstByte?.(performance.now() - t0));
          res.on('data', (c: Buffer) => (got += c.length));
          res.on('end', () => (got === length ? resolve(got) : reject(new Error(`${url}: ${got} of ${length} bytes`))));
          res.on('error', reject);
        }).once('error', reject);
      });
    }
    return bytes / MB / ((performance.now() - started) / 1000);
  };
  const downloadAll = () => fetchAll(job.parts.map((p) => p.downloadUrl), (ms) => firstBytes.push(ms));
  // Second baseline: the same files through core-api's plain media route (HTTP and storage, no zip).
  const mediaAll = () => fetchAll(recordingIds.map((id) => `/api/memories/${id}/media?type=recording`));
  // Raw reads and downloads alternate (two rounds each, best of each): the machine's load moves both alike.
  const raws: number[] = [];
  const downloads: number[] = [];
  const medias: number[] = [];
  for (let round = 0; round < 2; round++) {
    raws.push(await rawRead());
    downloads.push(await downloadAll());
    medias.push(await mediaAll());
  }
  const media = Math.max(...medias);
  clearInterval(timer);
  const [row] = await sql<{ status: string; size: number }[]>`select status, size_bytes::float8 as size from export_jobs where id = ${job.job.id}`;
  const zipBytes = Number(row!.size);
  const raw = Math.max(...raws);
  const rate = Math.max(...downloads);
  const archive = { parts: job.parts.map((p) => p.part), zipMB: zipBytes / MB, rawMBps: raw, downloadMBps: rate, ratio: rate / raw, peakRssMB: peak, rssBeforeMB: rssBefore, firstByteMs: Math.max(...firstBytes), jobStatus: row!.status, rssAtStartMB: rssAtStart, rssAfterListMB: rssAfterList, raws, downloads, medias, mediaMBps: media, ratioToMedia: rate / media };

  const explain = await sql`explain (analyze, buffers off, costs off, timing off, summary on)
    select m.source, m.id from (
      (select 'recording'::text as source, r.id, (r.created_at at time zone 'UTC') as at from recordings r where r.user_id = ${owner.id} and r.status = 'completed' and r.media_type = 'audio' order by (r.created_at at time zone 'UTC') desc, r.id desc limit 9625)
      union all (select 'image'::text, i.id, i.created_at from images i where i.user_id = ${owner.id} order by i.created_at desc, i.id desc limit 9625)
      union all (select 'story'::text, s.id, (s.created_at at time zone 'UTC') from stories s where s.user_id = ${owner.id} order by (s.created_at at time zone 'UTC') desc, s.id desc limit 9625)) m
    order by m.at desc, m.id desc offset 9600 limit 25`;

  const results = { list, archive, server: db.server, requests: REQUESTS, archiveMB: ARCHIVE_MB };
  writeJson(path.join(ROOT, 'bench', 'results', 'memories-archive.json'), results);
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const f = (x: number) => x.toFixed(1);
  process.stdout.write(
    [
      '',
      'GET /api/memories, 100,000 memories (p95 ms, sequential, keep-alive)',
      `  baseline GET /health        ${f(health)}`,
      `  page 0                      ${f(page0)}   ${(page0 / health).toFixed(1)}x health   ${mark(page0 < 50)} (< 50 ms)`,
      `  page 400                    ${f(page400)}   ${(page400 / health).toFixed(1)}x health   ${mark(page400 < 50)} (< 50 ms)`,
      `  cursor at page 400          ${f(cursor400)}   ${(cursor400 / health).toFixed(1)}x health   ${mark(cursor400 < 50)} (< 50 ms)`,
      `  cursor at page ${deep.page}        ${f(cursorDeep)}   ${(cursorDeep / page0).toFixed(2)}x page 0   ${mark(cursorDeep < 50 && cursorDeep <= 2 * page0)} (< 50 ms, <= 2x page 0)`,
      '',
      `Archive of ${ARCHIVE_MB} MB in ${files} files, parts ${archive.parts.join(', ')}`,
      `  raw storage read            ${f(raw)} MB/s (best of ${raws.map(f).join(', ')})`,
      `  zip download, all parts     ${f(rate)} MB/s (best of ${downloads.map(f).join(', ')}) = ${(archive.ratio * 100).toFixed(0)}% of raw   ${mark(archive.ratio >= 0.8)} (>= 80%)`,
      `  same files via media route  ${f(media)} MB/s (best of ${medias.map(f).join(', ')}); zip = ${((rate / media) * 100).toFixed(0)}% of it (HTTP's own cost, no zip)`,
      `  core-api peak RSS           ${f(peak)} MB (fresh process before the download ${f(rssBefore)}, growth ${f(peak - rssBefore)}; the list phase's process: ${f(rssAtStart)} at start, ${f(rssAfterList)} after)   ${mark(peak < 150)} (< 150 MB)`,
      `  first byte (slowest part)   ${f(archive.firstByteMs)} ms   ${mark(archive.firstByteMs < 1000)} (< 1 s)`,
      `  job after download          ${archive.jobStatus}, ${f(zipBytes / MB)} MB recorded`,
      '',
      'Plan of the page-400 merge (three sources):',
      ...explain.map((r) => `  ${String(Object.values(r)[0])}`),
      '',
    ].join('\n'),
  );
  return 0;
}

runBench(main, say);
