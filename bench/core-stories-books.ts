// Stories and books bench: core-api as deployed (the esbuild bundle) on real
// PostgreSQL, next to the two bare-Fastify baselines of bench/run.ts started in the same run.
//
//  - GET /api/stories for one account holding 2,000 stories: the first page, a deep keyset page
//    (cursor after 1,000 stories) and a deep offset page (page=99, the last 20), 20 connections;
//  - GET /api/books for one account with 50 books of 40 chapters each (made through POST /api/books);
//  - a 300-page interior PDF exported through POST /api/books/[id]/export: render time (the job's
//    started_at to completed_at) and core-api's peak RSS (VmHWM) before and after.
//
// Targets: p99 < 30 ms at 20 connections for both lists; the 300-page PDF in < 10 s and < 300 MB.
// Run: npx tsx --tsconfig tsconfig.base.json bench/core-stories-books.ts  (BENCH_DATABASE_URL or
// DATABASE_URL for an existing server, else an embedded one; BENCH_DURATION seconds per run, default 10).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { Cleanup, runBench } from './lib/cleanup';
import { buildCoreApi, coreApiEnv, startCoreApi } from './lib/core-api';
import { prepareDatabase } from './lib/database';
import { cpuPerRequest, type CpuSplit } from './lib/cpu';
import { measure, type LoadOptions, type Measurement, type Target } from './lib/load';
import { freePort, startTs, waitForOk, type Service } from './lib/processes';
import { HELLO, PK_SELECT, writeJson } from './lib/report';

const RESULTS_FILE = path.join(__dirname, 'results', 'core-stories-books.json');
const STORIES = 2000;
const BOOKS = 50;
const CHAPTERS = 40;
const PAGE = 20;
const PDF_PAGES_WANTED = 300;
const say = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const STORIES_FIRST = 'core-api GET /api/stories (first page)';
const STORIES_CURSOR = 'core-api GET /api/stories (cursor after 1,000)';
const STORIES_OFFSET = 'core-api GET /api/stories (page=99, offset 1,980)';
const BOOKS_LIST = 'core-api GET /api/books (50 x 40 chapters)';

interface Api {
  base: string;
  token: string;
}

async function call<T>(api: Api, method: string, url: string, body?: unknown, expected = 200): Promise<T> {
  const res = await fetch(`${api.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function signUp(base: string, label: string): Promise<Api & { userId: string }> {
  const res = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now().toString(36)}@example.test`, password: 'bench-password-1', fullName: 'Bench' }),
  });
  if (res.status !== 201) throw new Error(`signup answered ${res.status}`);
  const body = (await res.json()) as { user: { id: string }; session: { access_token: string } };
  return { base, token: body.session.access_token, userId: body.user.id };
}

const words = (n: number, seed: number) => Array.from({ length: n }, (_, i) => ['harvest', 'river', 'grandmother', 'winter', 'kitchen', 'letters', 'dance', 'road'][(i + seed) % 8]).join(' ');

/** 2,000 stories, one minute apart, inserted in one statement (the list is what is measured, not inserts). */
async function seedStories(sql: postgres.Sql, userId: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    insert into stories (user_id, title, type, content, word_count, metadata, created_at, updated_at)
    select ${userId}, 'Story ' || g, 'story', '<p>' || ${words(120, 1)} || ' ' || g || '.</p>', 121,
           jsonb_build_object('authorId', ${userId}::text), now() - make_interval(mins => g), now() - make_interval(mins => g)
      from generate_series(1, ${STORIES}) g
    returning id`;
  return rows.map((r) => r.id);
}

/** VmHWM (peak resident set) and VmRSS of a process, in MB. */
function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

interface PdfFigures {
  pages: number;
  chapters: number;
  words: number;
  renderSeconds: number;
  sizeMb: number;
  peakRssBeforeMb: number;
  peakRssAfterMb: number;
}

/** A family-tier account's 300-page book, exported through the API while nothing else runs. */
async function pdfRender(base: string, sql: postgres.Sql, pid: number): Promise<PdfFigures> {
  const api = await signUp(base, 'bench-pdf');
  await sql`update profiles set subscription_tier = 'family' where id = ${api.userId}`;
  // ~6,300 words a chapter (85 paragraphs of 74 words, under the 50,000-character limit): 16 chapters come to a little over 300 pages at 6x9.
  const chapters = 16;
  const paragraph = (c: number, p: number) => `<p>${words(70, c + p)} (chapter ${c}, paragraph ${p}).</p>`;
  const ids: string[] = [];
  for (let c = 1; c <= chapters; c++) {
    const content = Array.from({ length: 85 }, (_, p) => paragraph(c, p + 1)).join('');
    const story = await call<{ id: string }>(api, 'POST', '/api/stories', { title: `Chapter ${c}: the years on the farm`, content }, 201);
    ids.push(story.id);
  }
  const created = await call<{ book: { id: string; word_count: number } }>(api, 'POST', '/api/books', { title: 'The Long Book', author_name: 'Bench', trim_size: '6x9', selectedStories: ids }, 201);
  const before = memoryOf(pid);
  const queued = await call<{ job: { id: string } }>(api, 'POST', `/api/books/${created.book.id}/export`, { kind: 'interior' }, 202);
  for (;;) {
    const { job } = await call<{ job: { status: string; pages: number; sizeBytes: number; startedAt: string; completedAt: string; error: string | null } }>(
      api,
      'GET',
      `/api/books/${created.book.id}/exports/${queued.job.id}`,
    );
    if (job.status === 'failed') throw new Error(`the 300-page export failed: ${job.error}`);
    if (job.status === 'completed') {
      const after = memoryOf(pid);
      return {
        pages: job.pages,
        chapters,
        words: created.book.word_count,
        renderSeconds: (Date.parse(job.completedAt) - Date.parse(job.startedAt)) / 1000,
        sizeMb: job.sizeBytes / 1024 / 1024,
        peakRssBeforeMb: before.peakMb,
        peakRssAfterMb: after.peakMb,
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function verifyLists(api: Api, cursor: string): Promise<void> {
  const first = await call<{ stories: unknown[]; hasMore: boolean }>(api, 'GET', `/api/stories?limit=${PAGE}`);
  const deep = await call<{ stories: { title: string }[] }>(api, 'GET', `/api/stories?limit=${PAGE}&cursor=${cursor}`);
  const last = await call<{ stories: unknown[]; hasMore: boolean }>(api, 'GET', `/api/stories?limit=${PAGE}&page=99`);
  if (first.stories.length !== PAGE || !first.hasMore) throw new Error('first page of stories is not 20 items with more to come');
  if (deep.stories.length !== PAGE || deep.stories[0]?.title !== 'Story 1001') throw new Error(`cursor page starts at ${deep.stories[0]?.title}, expected Story 1001`);
  if (last.stories.length !== PAGE || last.hasMore) throw new Error('page 99 is not the last 20 stories');
  // The list carries each book's story_ids and chapters (metadata, CONTRACTS §8).
  const books = await call<{ books: { id: string; chapter_count: number; story_ids: unknown[]; chapters?: unknown[] }[] }>(api, 'GET', '/api/books');
  if (books.books.length !== BOOKS || books.books.some((b) => b.chapter_count !== CHAPTERS || b.story_ids.length !== CHAPTERS)) throw new Error('GET /api/books is not 50 books of 40 chapters');
  if (process.env['BENCH_BOOKS_WITHOUT_CHAPTERS'] !== '1' && books.books.some((b) => b.chapters?.length !== CHAPTERS)) throw new Error('GET /api/books does not carry 40 chapters per book');
  const one = await call<{ book: { chapters: unknown[] } }>(api, 'GET', `/api/books/${books.books[0]?.id}`);
  if (one.book.chapters.length !== CHAPTERS) throw new Error('GET /api/books/[id] does not answer its 40 chapters');
}

async function main(cleanup: Cleanup): Promise<number> {
  const duration = Number(process.env['BENCH_DURATION'] ?? 10);
  if (!Number.isFinite(duration) || duration <= 0) throw new Error('BENCH_DURATION must be a positive number of seconds');
  const load: LoadOptions = { connections: 20, warmupSeconds: 3, durationSeconds: duration };

  say('building core-api (esbuild bundle, as deployed)');
  await buildCoreApi();
  const db = await prepareDatabase(cleanup, say, 'bench_sb');
  say(`database ${db.name} on ${db.server}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-sb-'));
  cleanup.add('remove core-api data directory', async () => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const core = await startCoreApi(coreApiEnv(db.url, port, dataDir), base, cleanup);
  const pid = core.service.child.pid;
  if (pid === undefined) throw new Error('core-api has no pid');
  const sql = postgres(db.url, { max: 2, onnotice: () => undefined });
  cleanup.add('close bench connection', () => sql.end({ timeout: 5 }));

  say('rendering a 300-page interior through the export API (before any load, so the peak RSS is its own)');
  // BENCH_SKIP_PDF=1: the lists only (the render is timed by its own runs).
  const skipPdf = process.env['BENCH_SKIP_PDF'] === '1';
  const pdf = skipPdf ? { pages: PDF_PAGES_WANTED, chapters: 0, words: 0, sizeMb: 0, renderSeconds: 0, peakRssBeforeMb: 0, peakRssAfterMb: 0 } : await pdfRender(base, sql, pid);
  if (!skipPdf) say(`PDF: ${pdf.pages} pages in ${pdf.renderSeconds.toFixed(2)} s, peak RSS ${pdf.peakRssBeforeMb.toFixed(0)} -> ${pdf.peakRssAfterMb.toFixed(0)} MB`);
  if (pdf.pages < PDF_PAGES_WANTED) throw new Error(`the bench book came to ${pdf.pages} pages, fewer than ${PDF_PAGES_WANTED}`);

  const api = await signUp(base, 'bench-lists');
  const storyIds = await seedStories(sql, api.userId);
  say(`seeded ${storyIds.length} stories`);
  // Books through the real route: chapters, bindings and mirrors exactly as users get them.
  for (let b = 0; b < BOOKS; b++) {
    await call(api, 'POST', '/api/books', { title: `Book ${b + 1}`, author_name: 'Bench', trim_size: '6x9', selectedStories: storyIds.slice(b * CHAPTERS, (b + 1) * CHAPTERS) }, 201);
  }
  say(`created ${BOOKS} books of ${CHAPTERS} chapters through POST /api/books`);
  // Planner statistics as autovacuum would have them on a live database (the rows above are seconds old).
  await sql`analyze stories`;
  await sql`analyze books`;
  let cursor = '';
  for (let p = 0; p < 1000 / PAGE; p++) {
    const page: { nextCursor: string } = await call(api, 'GET', `/api/stories?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = page.nextCursor;
  }
  await verifyLists(api, cursor);

  const helloPort = await freePort();
  const hello = startTs('hello', 'bench/baselines/hello.ts', { BENCH_PORT: String(helloPort) });
  cleanup.add('stop hello', () => hello.stop());
  await waitForOk(`http://127.0.0.1:${helloPort}/`, hello);
  const pkPort = await freePort();
  const pkPath = `/accounts/${api.userId}`;
  const pk: Service = startTs('pk-select', 'bench/baselines/pk-select.ts', { BENCH_PORT: String(pkPort), BENCH_DATABASE: db.url });
  cleanup.add('stop pk-select', () => pk.stop());
  await waitForOk(`http://127.0.0.1:${pkPort}${pkPath}`, pk);

  const auth = { authorization: `Bearer ${api.token}` };
  const targets: Target[] = [
    { name: HELLO, url: `http://127.0.0.1:${helloPort}/` },
    { name: PK_SELECT, url: `http://127.0.0.1:${pkPort}${pkPath}` },
    { name: STORIES_FIRST, url: `${base}/api/stories?limit=${PAGE}`, headers: auth },
    { name: STORIES_CURSOR, url: `${base}/api/stories?limit=${PAGE}&cursor=${cursor}`, headers: auth },
    { name: STORIES_OFFSET, url: `${base}/api/stories?limit=${PAGE}&page=99`, headers: auth },
    { name: BOOKS_LIST, url: `${base}/api/books`, headers: auth },
  ];
  const measurements: Measurement[] = [];
  // Where each target's CPU goes: its server's process group and the bench database's backends, per request.
  const cpu: Record<string, CpuSplit> = {};
  const serverOf = (name: string) => (name === HELLO ? hello : name === PK_SELECT ? pk : core.service).child.pid;
  for (const target of targets) {
    cleanup.assertRunning();
    say(`${target.name}: ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s, ${load.connections} connections`);
    measurements.push(
      await measure(target, load, async (run) => {
        cpu[target.name] = await cpuPerRequest(serverOf(target.name), sql, db.name, run);
      }),
    );
    const crashed = [core.service, hello, pk].map((s) => s.crash()).find(Boolean);
    if (crashed) throw new Error(crashed);
  }
  await verifyLists(api, cursor);

  const pkRps = measurements.find((m) => m.target === PK_SELECT)?.requestsPerSec ?? Number.NaN;
  const lines = [
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'vs pk-select', 'CPU µs/req: server', 'PostgreSQL'],
    ...measurements.map((m) => [
      m.target,
      m.requestsPerSec.toFixed(0),
      m.p50Ms.toFixed(1),
      m.p99Ms.toFixed(1),
      String(m.non2xx + m.errors),
      `${((m.requestsPerSec / pkRps) * 100).toFixed(1)}%`,
      (cpu[m.target]?.serverUs ?? Number.NaN).toFixed(0),
      (cpu[m.target]?.postgresUs ?? Number.NaN).toFixed(0),
    ]),
  ];
  const widths = (lines[0] ?? []).map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  const checks = [
    ...[STORIES_FIRST, STORIES_CURSOR, STORIES_OFFSET, BOOKS_LIST].map((name) => {
      const p99 = measurements.find((m) => m.target === name)?.p99Ms ?? Infinity;
      return { check: `${name} p99`, target: '< 30 ms', actual: `${p99.toFixed(1)} ms`, met: p99 < 30 };
    }),
    // Skipped (BENCH_SKIP_PDF=1): not measured, so neither met nor missed.
    ...(skipPdf
      ? []
      : [
          { check: `${pdf.pages}-page interior render`, target: '< 10 s', actual: `${pdf.renderSeconds.toFixed(2)} s`, met: pdf.renderSeconds < 10 },
          { check: 'core-api peak RSS through the render', target: '< 300 MB', actual: `${pdf.peakRssAfterMb.toFixed(0)} MB`, met: pdf.peakRssAfterMb < 300 },
        ]),
  ];
  process.stdout.write(
    `\n${lines.map((l) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')).join('\n')}\n\n` +
      (skipPdf
        ? 'PDF: not rendered (BENCH_SKIP_PDF=1)\n\n'
        : `PDF: ${pdf.pages} pages, ${pdf.chapters} chapters, ${pdf.words} words, ${pdf.sizeMb.toFixed(2)} MB, rendered in ${pdf.renderSeconds.toFixed(2)} s; ` +
          `core-api peak RSS ${pdf.peakRssBeforeMb.toFixed(0)} MB before, ${pdf.peakRssAfterMb.toFixed(0)} MB after\n\n`) +
      `targets:\n${checks.map((c) => `  ${c.check}: ${c.actual} (target ${c.target}) ${c.met ? 'met' : 'MISSED'}`).join('\n')}\n`,
  );
  const failures = measurements.filter((m) => m.non2xx > 0 || m.errors > 0).map((m) => `${m.target}: ${m.non2xx} non-2xx, ${m.errors} errors`);
  writeJson(RESULTS_FILE, { finishedAt: new Date().toISOString(), machine: { node: process.version, cpus: os.cpus().length, loadavg: os.loadavg() }, database: db.server, load, measurements, cpuPerRequestUs: cpu, pdf, checks, failures });
  say(`results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  if (failures.length > 0) {
    process.stderr.write(`\nBENCH FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

runBench(main, say);
