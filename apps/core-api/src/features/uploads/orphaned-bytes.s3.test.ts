// No orphaned bytes, on the S3 adapter against s3rver (a real S3 wire server): a direct upload presigned
// and never registered (cut short, refused with 409) is deleted by the recurring sweep once its ticket has
// expired; account erasure empties the account's storage prefixes, objects no row points to included,
// and leaves other accounts' objects alone.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createObjectStorage, type ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { sweepBucket } from '../privacy/storage-sweep';
import { sweepExpiredUploads, UPLOAD_SWEEP_JOB, UPLOAD_SWEEP_SECONDS } from './upload-sweep';

const BUCKET = 'orphans';
const wav = (size: number) => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(size - 16, 7)]);

describe('orphaned bytes on S3 (s3rver)', () => {
  let dir: string;
  let s3: S3rver;
  let bucket: ObjectStorage;
  let t: TestContext;
  let s3Env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'orphans-s3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    bucket = createObjectStorage(
      { driver: 's3', bucket: BUCKET, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
      { publicBaseUrl: 'http://127.0.0.1:3000' },
    );
    s3Env = { STORAGE_DRIVER: 's3', S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' };
    t = await buildTestApp(s3Env);
  });
  afterAll(async () => {
    await t.close();
    await s3.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  async function presign(user: SignedUp, size: number) {
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'long.wav', contentType: 'audio/wav', size } });
    expect(res.statusCode).toBe(200);
    return res.json() as { uploadUrl: string; key: string; ticket: string; headers: Record<string, string> };
  }

  /** The browser's PUT straight to the presigned S3 URL. */
  async function putPresigned(p: { uploadUrl: string; headers: Record<string, string> }, body: Buffer) {
    const res = await fetch(p.uploadUrl, { method: 'PUT', headers: { ...p.headers, 'content-length': String(body.length) }, body });
    expect(res.status).toBe(200);
  }

  const register = (user: SignedUp, p: { key: string; ticket: string }) =>
    t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket, title: 'Long one', duration: 120 } });
  const exists = async (key: string) => (await bucket.head(key)).exists;
  const expire = (key: string) => t.database.sql`update direct_uploads set expires_at = now() - interval '11 minutes' where key = ${key}`;

  it('deletes an upload refused as cut short once its ticket expired, keeps registered and unexpired ones', async () => {
    const user = await signUp(t.app);
    // Cut short: 1,000 of 20,000 bytes arrive; register refuses with 409 and writes no row.
    const short = await presign(user, 20_000);
    await putPresigned({ ...short, headers: { ...short.headers } }, wav(20_000).subarray(0, 1000));
    const refused = await register(user, short);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('size_mismatch');
    expect(await exists(short.key)).toBe(true);
    // Presigned and never uploaded at all: nothing in the bucket, only the ticket row.
    const abandoned = await presign(user, 5_000);
    // Registered: the ticket row goes at register, the object stays.
    const done = await presign(user, 4_000);
    await putPresigned(done, wav(4_000));
    expect((await register(user, done)).statusCode).toBe(201);
    // Cut short too, but its ticket is still valid: a retry may still complete it.
    const fresh = await presign(user, 3_000);
    await putPresigned(fresh, wav(3_000).subarray(0, 100));

    const tickets = async () => (await t.database.sql<{ key: string }[]>`select key from direct_uploads where user_id = ${user.userId} order by key`).map((r) => r.key);
    expect(await tickets()).toEqual([short.key, abandoned.key, fresh.key].sort());

    // Nothing has expired yet: the sweep touches nothing.
    expect(await sweepExpiredUploads({ sql: t.database.sql, storage: bucket })).toEqual({ deleted: 0, kept: 0 });
    expect(await exists(short.key)).toBe(true);

    await expire(short.key);
    await expire(abandoned.key);
    // A ticket row left behind for a key a recording points to (its delete at register was lost).
    await t.database.sql`insert into direct_uploads (key, user_id, size_bytes, expires_at) values (${done.key}, ${user.userId}, 4000, now() - interval '1 hour')`;

    // The core runner's recurring job does it (the first drain seeds every recurring kind, due at once).
    await t.app.coreJobs.drain();
    const [ran] = await t.database.sql`select status, result from jobs where kind = ${UPLOAD_SWEEP_JOB} and status = 'succeeded' order by completed_at desc limit 1`;
    expect(ran).toMatchObject({ status: 'succeeded', result: { deleted: 2, kept: 1 } });
    expect(await exists(short.key)).toBe(false);
    expect(await exists(done.key)).toBe(true);
    expect(await exists(fresh.key)).toBe(true);
    expect(await tickets()).toEqual([fresh.key]);
    // It stays recurring: the next run is queued a sweep interval later.
    const [next] = await t.database.sql`select extract(epoch from run_at - now())::int as in_s from jobs where kind = ${UPLOAD_SWEEP_JOB} and status = 'queued'`;
    expect(Number(next!['in_s'])).toBeGreaterThan(UPLOAD_SWEEP_SECONDS - 60);
  });

  it('erasure empties every prefix of the account, objects no row points to included, and leaves others alone', async () => {
    const gone = await signUp(t.app);
    const other = await signUp(t.app);
    // A registered recording (a row points to it), an unregistered presigned upload, and strays under each
    // of the account's folders that no row names.
    const registered = await presign(gone, 4_000);
    await putPresigned(registered, wav(4_000));
    expect((await register(gone, registered)).statusCode).toBe(201);
    const unregistered = await presign(gone, 8_000);
    await putPresigned(unregistered, wav(8_000).subarray(0, 10));
    const strays = [
      `recordings/${gone.userId}/2026/01/stray.webm`,
      `images/${gone.userId}/2026/01/lost.jpg`,
      `images/${gone.userId}/2026/01/lost.thumb.webp`,
      `uploads/${gone.userId}/documents/2026/01/old.pdf`,
      `imports/${gone.userId}/2026/01/x.docx`,
      `conversations/${gone.userId}/c1/2026/01/turn.webm`,
      `data-exports/${gone.userId}/2026/01/e.zip`,
    ];
    for (const key of strays) await bucket.put(key, Buffer.from('stray bytes'));
    // A book of the account and an export of it that lost its row.
    const [book] = await t.database.sql`insert into books (user_id, title) values (${gone.userId}, 'Our book') returning id`;
    const bookExport = `exports/books/${book!['id']}/2026/01/book.pdf`;
    await bucket.put(bookExport, Buffer.from('%PDF'));
    // The other account's objects, including one no row names.
    const keep = await presign(other, 4_000);
    await putPresigned(keep, wav(4_000));
    expect((await register(other, keep)).statusCode).toBe(201);
    const otherStray = `recordings/${other.userId}/2026/01/stray.webm`;
    await bucket.put(otherStray, Buffer.from('theirs'));

    const res = await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: gone.headers });
    expect(res.statusCode).toBe(200);
    await t.app.coreJobs.drain();

    for (const folder of ['recordings', 'images', 'uploads', 'imports', 'conversations', 'data-exports']) {
      expect((await bucket.list(`${folder}/${gone.userId}`)).objects).toEqual([]);
    }
    expect(await exists(bookExport)).toBe(false);
    expect(await exists(registered.key)).toBe(false);
    expect(await exists(unregistered.key)).toBe(false);
    expect((await bucket.list('')).objects.filter((o) => o.key.includes(gone.userId))).toEqual([]);
    expect(await exists(keep.key)).toBe(true);
    expect(await exists(otherStray)).toBe(true);
    // The job payloads named the account; once done they are scrubbed.
    const purges = await t.database.sql`select payload from jobs where kind in ('account.purge_storage', 'account.purge_prefixes') and status = 'succeeded'`;
    expect(purges.length).toBeGreaterThanOrEqual(2);
    for (const p of purges) expect(JSON.stringify(p['payload'])).not.toContain(gone.userId);
  });

  it('sweeps an existing bucket once: counts, then deletes only what no row points to, rechecking after the settle time', async () => {
    const user = await signUp(t.app);
    const kept = await presign(user, 4_000);
    await putPresigned(kept, wav(4_000));
    expect((await register(user, kept)).statusCode).toBe(201);
    // A ticket still valid: its object may be registered any moment.
    const pending = await presign(user, 2_000);
    await putPresigned(pending, wav(2_000));
    const strays = [`recordings/${user.userId}/2025/01/old.webm`, `images/${user.userId}/2025/01/old.jpg`, `recordings/${randomUUID()}/2025/01/erased-long-ago.webm`];
    for (const key of strays) await bucket.put(key, Buffer.from('0123456789'));
    // Written while the sweep settles: its row commits then (a server-side upload), so it must stay.
    const lateRow = `recordings/${user.userId}/2025/02/late.webm`;
    await bucket.put(lateRow, Buffer.from('late'));
    const folders = ['recordings', 'images'];

    const dry = await sweepBucket({ sql: t.database.sql, storage: bucket, deleteOrphans: false, folders });
    const recordings = dry.find((r) => r.folder === 'recordings')!;
    expect(recordings.orphaned).toBeGreaterThanOrEqual(3);
    expect(recordings.examples).toEqual(expect.arrayContaining([lateRow]));
    for (const key of [...strays, lateRow, kept.key, pending.key]) expect(await exists(key)).toBe(true);

    const sweeping = sweepBucket({ sql: t.database.sql, storage: bucket, deleteOrphans: true, settleMs: 1500, folders });
    await new Promise((r) => setTimeout(r, 500));
    await t.database.sql`insert into recordings (user_id, title, storage_key, status, media_type) values (${user.userId}, 'late', ${lateRow}, 'completed', 'audio')`;
    const reports = await sweeping;
    expect(reports.reduce((n, r) => n + r.deleted, 0)).toBeGreaterThanOrEqual(3);
    for (const key of strays) expect(await exists(key)).toBe(false);
    for (const key of [lateRow, kept.key, pending.key]) expect(await exists(key)).toBe(true);
  });

  it('npm run storage:sweep runs the same sweep from the command line', async () => {
    const user = await signUp(t.app);
    const stray = `uploads/${user.userId}/documents/2025/01/forgotten.pdf`;
    await bucket.put(stray, Buffer.from('%PDF stray'));
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [require.resolve('tsx/cli'), '--tsconfig', 'tsconfig.base.json', 'tools/sweep-storage.ts', ...args],
          { cwd: path.resolve(__dirname, '../../../../..'), env: { ...process.env, ...s3Env, DATABASE_URL: t.database.url, NODE_ENV: 'test', DATA_DIR: dir }, timeout: 60_000 },
          (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const dry = await run([]);
    expect(dry.code).toBe(0);
    expect(dry.stderr).not.toMatch(/failed|Error/);
    expect(dry.stdout).toContain('counting (dry run; --delete deletes)');
    expect(dry.stdout).toMatch(/uploads\s+listed \d+, orphaned [1-9]\d*/);
    expect(await exists(stray)).toBe(true);
    const swept = await run(['--delete', '--settle-seconds', '0']);
    expect(swept.code).toBe(0);
    expect(swept.stdout).toMatch(/uploads\s+listed \d+, orphaned [1-9]\d* \([\d.]+ MB\), deleted [1-9]/);
    expect(await exists(stray)).toBe(false);
  }, 90_000);
});
