import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import type { ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCast, type Cast } from '../../test/stories-books-factories';
import { newBookWithExport, newImageRow, newRecordingRow, newStoryRow, setMemoriesProfile } from '../../test/memories-factories';

const run = promisify(execFile);
const LIMIT = 20_000;

let t: TestContext;
let cast: Cast;
let big: SignedUp;
let dir: string;
let store: ObjectStorage;
/** Keys read from storage (get), to prove a resume does not read what it skips. */
const reads: string[] = [];
const data: Record<string, Buffer> = {};

beforeAll(async () => {
  t = await buildTestApp(
    { ARCHIVE_PART_MAX_BYTES: String(LIMIT) },
    {
      providers: (base) => {
        store = base.storage;
        return { storage: { ...base.storage, get: (key, range) => (reads.push(key), base.storage.get(key, range)) } };
      },
    },
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'archive-test-'));
  cast = await newCast(t.app, t.database.sql);
  big = await signUp(t.app);
  const { sql } = t.database;
  const owner = cast.owner.userId;
  await setMemoriesProfile(sql, owner, { timezone: 'America/Los_Angeles', name: 'Ann Storyteller' });
  // 03:00 UTC on 2 May is still 1 May in Los Angeles.
  const at = new Date('2026-05-02T03:00:00Z');
  const rec = await newRecordingRow(sql, store, owner, { title: 'Grandma: "the farm"?', at, transcript: 'We had cows.', data: Buffer.from('ID3 fake mp3 bytes '.repeat(30)) });
  data['recordings/2026-05-01-Grandma the farm.mp3'] = rec.data;
  const twin = await newRecordingRow(sql, store, owner, { title: 'Grandma: "the farm"?', at: new Date(at.getTime() + 1000), data: Buffer.from('second take '.repeat(20)) });
  data['recordings/2026-05-01-Grandma the farm (2).mp3'] = twin.data;
  await newRecordingRow(sql, store, owner, { title: 'Lost one', at: new Date(at.getTime() + 2000), store: false });
  const video = await newRecordingRow(sql, store, owner, { title: 'Birthday', at, mediaType: 'video', data: Buffer.from('\0\0\0 ftypmp42 video '.repeat(40)) });
  data['videos/2026-05-01-Birthday.mp4'] = video.data;
  const photo = await newImageRow(sql, store, owner, { title: '../../etc/passwd', at, kind: 'art' });
  data['photos/2026-05-01-etc passwd.jpg'] = photo.data;
  const book = await newBookWithExport(sql, store, owner, { title: 'Our Book', at });
  data['book/Our Book-interior.pdf'] = book.data;
  await newStoryRow(sql, owner, { title: 'First <day>', at, content: '<p>It rained.</p>', bookId: book.bookId });
  await newStoryRow(sql, owner, { title: 'Second', at: new Date(at.getTime() + 5000) });
  // The big storyteller: over the limit, recordings alone over it (four files of 7,000 bytes).
  for (let i = 0; i < 4; i++) await newRecordingRow(sql, store, big.userId, { title: `Take ${i}`, at: new Date(at.getTime() + i * 1000), data: Buffer.alloc(7000, 65 + i) });
  await newImageRow(sql, store, big.userId, { title: 'One photo', at });
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const open = (who: SignedUp, storytellerId: string) => t.app.inject({ method: 'POST', url: '/api/account/archive', headers: who.headers, payload: { storytellerId } });
const download = (who: SignedUp, jobId: string, part: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/account/archive/${jobId}/download?part=${encodeURIComponent(part)}`, headers: { ...who.headers, ...headers } });

async function unzipTest(zip: Buffer, name: string): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, zip);
  const { stdout } = await run('unzip', ['-t', file]);
  expect(stdout).toMatch(/No errors detected/);
}

async function entries(zip: Buffer): Promise<Map<string, Buffer>> {
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z))));
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) =>
      zipfile.openReadStream(entry, async (err, stream) => {
        if (err || !stream) return reject(err);
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        out.set(entry.fileName, Buffer.concat(chunks));
        zipfile.readEntry();
      }),
    );
    zipfile.on('end', resolve);
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  return out;
}

describe('a single zip (estimate under the limit)', () => {
  let jobId: string;
  let whole: Buffer;

  it('POST counts and sizes per folder and opens a pending archive job, zipping nothing', async () => {
    const readsBefore = reads.length;
    const res = await open(cast.owner, cast.owner.userId);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    jobId = body.job.id;
    expect(body).toMatchObject({ singleZip: true, itemCount: 8, parts: [{ part: 'all', folder: 'all' }] });
    expect(body.folders).toEqual(expect.arrayContaining([expect.objectContaining({ folder: 'recordings', count: 3 }), expect.objectContaining({ folder: 'stories', count: 2 })]));
    expect(reads.length).toBe(readsBefore);
    const [row] = await t.database.sql`select kind, status, storyteller_id, item_count from export_jobs where id = ${jobId}`;
    expect(row).toMatchObject({ kind: 'archive', status: 'pending', storyteller_id: cast.owner.userId, item_count: 8 });
  });

  it('streams the exact layout with the exact Content-Length; unzip -t and yauzl agree; bytes as uploaded', async () => {
    const res = await download(cast.owner, jobId, 'all');
    expect(res.statusCode).toBe(200);
    whole = res.rawPayload;
    expect(Number(res.headers['content-length'])).toBe(whole.length);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['accept-ranges']).toBe('bytes');
    await unzipTest(whole, 'all.zip');
    const files = await entries(whole);
    expect([...files.keys()]).toEqual([
      'README.txt',
      'book/Our Book-interior.pdf',
      'stories/01-First day.html',
      'stories/02-Second.html',
      'stories/stories.json',
      'recordings/2026-05-01-Grandma the farm.mp3',
      'recordings/2026-05-01-Grandma the farm.transcript.txt',
      'recordings/2026-05-01-Grandma the farm (2).mp3',
      'videos/2026-05-01-Birthday.mp4',
      'photos/2026-05-01-etc passwd.jpg',
      'manifest.json',
    ]);
    for (const [name, bytes] of Object.entries(data)) expect(files.get(name)!.equals(bytes)).toBe(true);
    expect(files.get('recordings/2026-05-01-Grandma the farm.transcript.txt')!.toString()).toBe('We had cows.\n');
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    expect(manifest.missing).toEqual([expect.objectContaining({ path: 'recordings/2026-05-01-Lost one.mp3', sourceType: 'recording', reason: 'not found in storage' })]);
    expect(manifest.files.find((f: { path: string }) => f.path === 'recordings/2026-05-01-Lost one.mp3')).toMatchObject({ included: false });
    // Every file of the zip is listed with its size and SHA-256, stored media included; manifest.json lists
    // itself (its size; no file can hold its own checksum).
    const listed = manifest.files.filter((x: { included: boolean }) => x.included).map((x: { path: string }) => x.path);
    expect(listed.sort()).toEqual([...files.keys()].sort());
    for (const f of manifest.files.filter((x: { included: boolean }) => x.included)) {
      expect(files.get(f.path)!.length).toBe(f.size);
      if (f.path === 'manifest.json') expect(f).toMatchObject({ sha256: null, sourceType: 'archive' });
      else expect(createHash('sha256').update(files.get(f.path)!).digest('hex')).toBe(f.sha256);
    }
    const stories = JSON.parse(files.get('stories/stories.json')!.toString()).stories;
    expect(stories[0]).toMatchObject({ file: '01-First day.html', title: 'First <day>', date: '2026-05-01', book: { title: 'Our Book' } });
    const page = files.get('stories/01-First day.html')!.toString();
    expect(page).toContain('First &lt;day&gt;');
    expect(page).not.toMatch(/<script|<img|<link|\bsrc=|\bhref=|url\(|@import|https?:\/\//i);
    expect(page).toMatch(/font-family: [^;]*serif;/);
    expect(files.get('README.txt')!.toString()).toMatch(/Memories of Ann Storyteller[\s\S]*whole archive[\s\S]*1 file\(s\) could not be read/);
  });

  it('gives the same bytes again, records the job completed with its size, and learns the checksums', async () => {
    const again = await download(cast.owner, jobId, 'all');
    expect(again.rawPayload.equals(whole)).toBe(true);
    const [row] = await t.database.sql`select status, size_bytes::float8 as size, completed_at is not null as done from export_jobs where id = ${jobId}`;
    expect(row).toMatchObject({ status: 'completed', size: whole.length, done: true });
    const [known] = await t.database.sql`select count(*)::int as n, count(sha256)::int as hashed from archive_checksums`;
    expect(known!['n']).toBeGreaterThanOrEqual(5);
    expect(known!['hashed']).toBe(known!['n']);
    // The second download took the stored SHA-256s: same manifest, same bytes.
    const manifest = JSON.parse((await entries(again.rawPayload)).get('manifest.json')!.toString());
    for (const f of manifest.files.filter((x: { included: boolean; path: string }) => x.included && x.path !== 'manifest.json')) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('resumes at any byte with 206 without reading the files before that byte', async () => {
    const etag = (await download(cast.owner, jobId, 'all', { range: 'bytes=0-0' })).headers['etag'] as string;
    for (const start of [1, 100, Math.floor(whole.length / 2), whole.length - 50]) {
      reads.length = 0;
      const res = await download(cast.owner, jobId, 'all', { range: `bytes=${start}-`, 'if-range': etag });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${whole.length - 1}/${whole.length}`);
      expect(res.rawPayload.equals(whole.subarray(start))).toBe(true);
      if (start === whole.length - 50) expect(reads).toEqual([]);
    }
    expect((await download(cast.owner, jobId, 'all', { range: `bytes=${whole.length}-` })).statusCode).toBe(416);
    // A stale validator: the bytes may have changed, so the whole zip comes back.
    const stale = await download(cast.owner, jobId, 'all', { range: 'bytes=100-', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(whole.length);
  });

  it('lets family download while the switch is on, re-checked on every request; others get 404', async () => {
    const job = (await open(cast.viewer, cast.owner.userId)).json().job.id as string;
    expect((await download(cast.viewer, job, 'all')).statusCode).toBe(200);
    await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: false });
    try {
      const refused = await download(cast.viewer, job, 'all');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('Downloads for family members are turned off for these memories. You can still play and open every memory.');
      expect((await open(cast.viewer, cast.owner.userId)).statusCode).toBe(403);
      expect((await download(cast.owner, jobId, 'all', { range: 'bytes=0-9' })).statusCode).toBe(206);
    } finally {
      await setMemoriesProfile(t.database.sql, cast.owner.userId, { familyDownload: true });
    }
    for (const who of [cast.stranger, cast.removed, cast.contributor]) expect((await download(who, job, 'all')).statusCode).toBe(404);
    expect((await open(cast.stranger, cast.owner.userId)).statusCode).toBe(404);
    expect((await open(cast.removed, cast.owner.userId)).statusCode).toBe(404);
    expect((await open(cast.owner, 'not-a-uuid')).statusCode).toBe(400);
    expect((await download(cast.owner, '00000000-0000-4000-8000-000000000000', 'all')).statusCode).toBe(404);
  });
});

describe('download name and checksums on a resume', () => {
  it("names the file with the storyteller's letters as written (RFC 6266 filename*) and the date in their time zone", async () => {
    const who = await signUp(t.app);
    // UTC+14: for ten hours of every UTC day the storyteller's calendar is a day ahead.
    await setMemoriesProfile(t.database.sql, who.userId, { timezone: 'Pacific/Kiritimati', name: 'Zoë Ångström-王 / "x"' });
    await newRecordingRow(t.database.sql, store, who.userId, { title: 'One', at: new Date(), data: Buffer.from('abc') });
    const job = (await open(who, who.userId)).json().job;
    const res = await download(who, job.id, 'all');
    expect(res.statusCode).toBe(200);
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(job.createdAt));
    const name = `memories-Zoë-Ångström-王-x-${date}-all.zip`;
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(disposition).toMatch(/^attachment; filename="memories-Zoe-Angstrom--x-\d{4}-\d{2}-\d{2}-all\.zip";/);
  });

  it('lists the SHA-256 of files a resumed request skipped, reading them once through the hash', async () => {
    const who = await signUp(t.app);
    await setMemoriesProfile(t.database.sql, who.userId, { timezone: 'UTC' });
    const first = await newRecordingRow(t.database.sql, store, who.userId, { title: 'First', at: new Date('2026-01-01T10:00:00Z'), data: Buffer.alloc(3000, 7) });
    await newRecordingRow(t.database.sql, store, who.userId, { title: 'Second', at: new Date('2026-01-02T10:00:00Z'), data: Buffer.alloc(2000, 9) });
    const job = (await open(who, who.userId)).json().job.id as string;
    const length = Number((await download(who, job, 'all', { range: 'bytes=0-0' })).headers['content-range']!.toString().split('/')[1]);
    // Nothing is known yet: start after the first recording, so it is skipped, not streamed.
    reads.length = 0;
    const tail = await download(who, job, 'all', { range: `bytes=${length - 1200}-` });
    expect(tail.statusCode).toBe(206);
    expect(reads).toContain(first.key);
    const whole = await download(who, job, 'all');
    expect(whole.rawPayload.subarray(length - 1200).equals(tail.rawPayload)).toBe(true);
    const manifest = JSON.parse((await entries(whole.rawPayload)).get('manifest.json')!.toString());
    const listed = manifest.files.find((f: { path: string }) => f.path === 'recordings/2026-01-01-First.mp3');
    expect(listed.sha256).toBe(createHash('sha256').update(Buffer.alloc(3000, 7)).digest('hex'));
  });
});

describe('over the limit: one zip per folder, a big folder in numbered parts', () => {
  it('offers parts, refuses all, and every part is a complete zip naming itself', async () => {
    await setMemoriesProfile(t.database.sql, big.userId, { timezone: 'UTC' });
    const body = (await open(big, big.userId)).json();
    expect(body.singleZip).toBe(false);
    expect(body.parts.map((p: { part: string }) => p.part)).toEqual(['recordings-1', 'recordings-2', 'photos']);
    const jobId = body.job.id as string;
    const all = await download(big, jobId, 'all');
    expect(all.statusCode).toBe(409);
    expect(all.json().error).toMatch(/recordings-1, recordings-2, photos/);
    expect((await download(big, jobId, 'nonsense')).json()).toMatchObject({ error: expect.stringMatching(/^part must be one of/) });
    expect((await download(big, jobId, 'nonsense')).statusCode).toBe(400);
    const seen: string[] = [];
    for (const part of ['recordings-1', 'recordings-2', 'photos']) {
      const res = await download(big, jobId, part);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBeLessThanOrEqual(LIMIT + 2000);
      await unzipTest(res.rawPayload, `${part}.zip`);
      const files = await entries(res.rawPayload);
      expect(files.get('README.txt')!.toString()).toContain(`the part "${part}"`);
      expect(files.get('README.txt')!.toString()).toContain('There is no book PDF in this archive');
      expect(JSON.parse(files.get('manifest.json')!.toString()).part).toBe(part);
      seen.push(...[...files.keys()].filter((k) => !['README.txt', 'manifest.json'].includes(k)));
    }
    // This storyteller's zone is UTC: the same instant is dated 2 May here.
    expect(seen).toEqual(['recordings/2026-05-02-Take 0.mp3', 'recordings/2026-05-02-Take 1.mp3', 'recordings/2026-05-02-Take 2.mp3', 'recordings/2026-05-02-Take 3.mp3', 'photos/2026-05-02-One photo.jpg']);
    const [row] = await t.database.sql`select status from export_jobs where id = ${jobId}`;
    expect(row!['status']).toBe('completed');
  });
});
