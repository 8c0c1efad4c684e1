// Data exports (CONTRACTS §9 Data export; spec 000 Authentication 5): json with every row the account owns
// and no secret, pdf read back by MuPDF, zip opened with yauzl with the media bytes as stored; the download
// rules (202 while pending, 409 failed, 410 expired) and the expiry sweep; bad input; a stranger always gets
// 404.
import yauzl from 'yauzl';
import { createDbClient } from '@story/db';
import type { ObjectStorage } from '@story/providers';
import { seedAccount, type Seeded } from '../../test/account-factories';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { createFamilyActors, runPermissionMatrix } from '../../test/permission-matrix';
import { readPdf } from '../../test/stories-books-factories';
import { zipExportStream } from './export-files';

let t: TestContext;
let storage: ObjectStorage;
let a: SignedUp;
let b: SignedUp;
let sa: Seeded;

beforeAll(async () => {
  t = await buildTestApp({}, { providers: (base) => ((storage = base.storage), {}) });
  a = await signUp(t.app);
  b = await signUp(t.app);
  sa = await seedAccount(t.database.sql, storage, a);
  await seedAccount(t.database.sql, storage, b);
}, 60000);
afterAll(async () => t.close());

const get = (url: string, who: SignedUp = a) => t.app.inject({ method: 'GET', url, headers: who.headers });
const post = (url: string, payload: unknown, who: SignedUp = a) => t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as object });

async function finished(id: string, who: SignedUp = a) {
  await t.app.coreJobs.drain();
  const res = await get(`/api/user/data-exports/${id}`, who);
  expect(res.statusCode).toBe(200);
  return res.json().export;
}

function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, Buffer>();
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => (out.set(entry.fileName, Buffer.concat(chunks)), zip.readEntry()));
          stream.on('error', reject);
        }),
      );
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function read(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of (await storage.get(key)).body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('POST /api/user/export-data (json)', () => {
  it('builds a json of every row the account owns, without secrets or anyone else’s rows', async () => {
    const res = await post('/api/user/export-data', { format: 'json', exportType: 'all' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id: expect.any(String), status: 'pending', export_type: 'all', format: 'json' });
    // A 202 says where to poll and when (RFC 9110): Location is the export record, which answers.
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['location']).toBe(`/api/user/data-exports/${res.json().id}`);
    expect((await get(res.headers['location'] as string)).json().export.id).toBe(res.json().id);
    const done = await finished(res.json().id);
    expect(done).toMatchObject({ status: 'completed', file_url: `/api/user/data-exports/${done.id}/download` });
    expect(done.file_size_bytes).toBeGreaterThan(1000);
    const days = (Date.parse(done.expires_at) - Date.parse(done.completed_at)) / 86400_000;
    expect(days).toBeCloseTo(7, 1);

    const file = await get(done.file_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/application\/json/);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="data-export-all-\d{4}-\d{2}-\d{2}\.json"/);
    const data = JSON.parse(file.body);
    expect(data.userId).toBe(a.userId);
    const tables = data.tables as Record<string, Record<string, unknown>[]>;
    expect(tables['accounts']![0]).toMatchObject({ id: a.userId, email: a.email });
    expect(tables['stories']!.length).toBe(3);
    expect(tables['recordings']!.length).toBe(2);
    expect(tables['images']!.length).toBe(2);
    for (const name of ['profiles', 'user_settings', 'consent_records', 'campaigns', 'books', 'conversations', 'gifts', 'invoices', 'achievement_progress', 'tools_responses', 'family_groups (created_by)'])
      expect(tables[name]?.length ?? 0).toBeGreaterThan(0);
    expect(tables['conversation_messages (of conversations.user_id)']!.length).toBe(1);
    expect(tables['book_chapters (of books.user_id)']!.length).toBe(1);
    expect(Object.keys(tables)).not.toContain('auth_sessions');
    expect(file.body).not.toMatch(/password_hash|token_hash|code_hash|"storage_key"/);
    // The copies kept for fast lists are not the person's data twice over; the columns they copy are there.
    expect(file.body).not.toMatch(/list_item_json|summary_json/);
    expect(tables['campaigns']![0]).toHaveProperty('title');
    expect(tables['books']![0]).toHaveProperty('story_ids');
    expect(file.body).not.toContain(b.userId);
  });

  it('writes a table of more rows than one read batch whole (cursor) between small ones (read ahead)', async () => {
    const c = await signUp(t.app);
    await seedAccount(t.database.sql, storage, c, { stories: 450, recordings: 210, images: 1 });
    const res = await post('/api/user/export-data', { format: 'json', exportType: 'all' }, c);
    const done = await finished(res.json().id, c);
    const data = JSON.parse((await get(done.file_url, c)).body);
    const tables = data.tables as Record<string, Record<string, unknown>[]>;
    const ids = await t.database.sql<{ id: string }[]>`select id from stories where user_id = ${c.userId}`;
    expect(ids).toHaveLength(450);
    expect(new Set(tables['stories']!.map((r) => r['id']))).toEqual(new Set(ids.map((r) => r.id)));
    expect(tables['stories']).toHaveLength(450);
    // Secret columns stay out of big tables too.
    expect(tables['recordings']).toHaveLength(210);
    expect(Object.keys(tables['recordings']![0]!)).not.toContain('storage_key');
    expect(tables['images']).toHaveLength(1);
    expect(Object.keys(tables['images']![0]!)).not.toContain('storage_key');
    expect(tables['accounts']![0]).toMatchObject({ id: c.userId });
    expect(tables['campaigns']!.length).toBeGreaterThan(0);

    // The zip on a pool of one connection: data.json's queries start before the file list is read, and a
    // cursor paused until the zip reads it must not keep the file list's query from running.
    const one = createDbClient(t.database.url, { max: 1 });
    try {
      const zip = await Promise.race([
        zipExportStream(one.sql, storage, { id: done.id, user_id: c.userId, export_type: 'all' }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the zip never started')), 10_000)),
      ]);
      const chunks: Buffer[] = [];
      for await (const chunk of zip.stream) chunks.push(chunk as Buffer);
      expect((await zip.done).missing).toEqual([]);
      const entries = await unzip(Buffer.concat(chunks));
      expect(JSON.parse(entries.get('data.json')!.toString()).tables['stories']).toHaveLength(450);
      expect([...entries.keys()].filter((n) => n.startsWith('recordings/'))).toHaveLength(210);
    } finally {
      await one.close();
    }
  }, 60000);

  it('answers an export of type profile with only the profile tables', async () => {
    const res = await post('/api/settings/data-export', { export_type: 'profile', format: 'json' });
    expect(res.statusCode).toBe(202);
    expect(res.headers['location']).toBe(`/api/user/data-exports/${res.json().export.id}`);
    const done = await finished(res.json().export.id);
    const data = JSON.parse((await get(done.file_url)).body);
    expect(Object.keys(data.tables)).toContain('profiles');
    expect(Object.keys(data.tables)).not.toContain('stories');
  });
});

describe('queued emails in the export (CONTRACTS §7)', () => {
  /** The token of the newest queued sign-in link of the account (what its mailbox receives). */
  const magicToken = async (userId: string) => {
    const [row] = await t.database.sql`select q.text_content from email_send_queue q join email_templates tp on tp.id = q.template_id
      where q.user_id = ${userId} and tp.name = 'magic_link' order by q.created_at desc limit 1`;
    return /token=([A-Za-z0-9_-]{43})/.exec(String(row!['text_content']))![1]!;
  };
  const exported = async (who: SignedUp, format: 'json' | 'zip') => {
    const res = await post('/api/user/export-data', { format, exportType: 'all' }, who);
    const done = await finished(res.json().id, who);
    const file = await t.app.inject({ method: 'GET', url: done.file_url, headers: who.headers });
    expect(file.statusCode).toBe(200);
    return format === 'json' ? file.body : (await unzip(file.rawPayload)).get('data.json')!.toString('utf8');
  };

  it('never carries a live sign-in link, and lists no mail at all for an address not verified', async () => {
    const c = await signUp(t.app);
    expect((await post('/api/auth/magic-link', { email: c.email }, c)).statusCode).toBe(200);
    const unverifiedToken = await magicToken(c.userId);
    for (const format of ['json', 'zip'] as const) {
      const body = await exported(c, format);
      expect(body).not.toContain(unverifiedToken);
      expect(JSON.parse(body).tables['email_send_queue']).toEqual([]);
    }

    await t.database.sql`update accounts set email_confirmed_at = now() where id = ${c.userId}`;
    expect((await post('/api/auth/magic-link', { email: c.email }, c)).statusCode).toBe(200);
    const token = await magicToken(c.userId);
    for (const format of ['json', 'zip'] as const) {
      const body = await exported(c, format);
      expect(body).not.toContain(token);
      expect(body).not.toContain(unverifiedToken);
      const mails = JSON.parse(body).tables['email_send_queue'] as { template_variables: Record<string, unknown> }[];
      expect(mails.some((m) => m.template_variables['magic_link_url'] === '[removed]')).toBe(true);
    }
  });
});

describe('GET /api/user/data-export?format=', () => {
  it('queues a pdf when none is ready (202), then streams the newest completed one', async () => {
    const first = await get('/api/user/data-export?format=pdf');
    expect(first.statusCode).toBe(202);
    expect(first.headers['retry-after']).toBe('5');
    expect(first.headers['location']).toBe(`/api/user/data-exports/${first.json().export.id}`);
    expect(first.json().export).toMatchObject({ format: 'pdf', export_type: 'all', status: 'pending' });
    // Asked again while pending: the same export, not a second one.
    expect((await get('/api/user/data-export?format=pdf')).json().export.id).toBe(first.json().export.id);
    await t.app.coreJobs.drain();
    const pdf = await get('/api/user/data-export?format=pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const doc = await readPdf(pdf.rawPayload);
    expect(doc.pages).toBeGreaterThanOrEqual(4);
    expect(doc.text).toContain('Zoë Ångström');
    expect(doc.text).toContain('Story 0 — été');
    expect(doc.text).toContain('北京');
  }, 60000);

  it('fails a pdf whose stories hold characters no bundled font draws, naming them (409 on download)', async () => {
    const c = await signUp(t.app);
    await t.database.sql`insert into stories (user_id, title, content) values (${c.userId}, 'ยาย', '<p>Grandmother said สวัสดี.</p>')`;
    const res = await post('/api/user/export-data', { format: 'pdf' }, c);
    expect(res.statusCode).toBe(202);
    const done = await finished(res.json().export.id, c);
    expect(done.status).toBe('failed');
    const download = await get(`/api/user/data-exports/${String(done.id)}/download`, c);
    expect(download.statusCode).toBe(409);
    expect(download.json().error).toContain('U+0E22 THAI CHARACTER YO YAK');
  }, 60000);

  it('zip: data.json plus every media file with the stored bytes, and a manifest', async () => {
    const access = await get('/api/privacy/access');
    expect(access.statusCode).toBe(200);
    const { downloadUrl, success, message } = access.json();
    expect(success).toBe(true);
    expect(message).toEqual(expect.any(String));
    const pending = await get(downloadUrl);
    expect(pending.statusCode).toBe(202);
    expect(pending.headers['retry-after']).toBe('5');
    expect(pending.headers['location']).toMatch(/^\/api\/user\/data-exports\/[0-9a-f-]{36}$/);
    await t.app.coreJobs.drain();
    const res = await get(downloadUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = await unzip(res.rawPayload);
    expect(JSON.parse(entries.get('data.json')!.toString()).tables['stories']).toHaveLength(3);
    const recordings = [...entries.keys()].filter((n) => n.startsWith('recordings/'));
    expect(recordings).toHaveLength(2);
    const [rec] = await t.database.sql<{ storage_key: string; title: string }[]>`select storage_key, title from recordings where user_id = ${a.userId} and title = 'Recording 0'`;
    const name = recordings.find((n) => n.includes('Recording 0'))!;
    expect(name).toMatch(/^recordings\/\d{4}-\d{2}-\d{2}-Recording 0\.mp3$/);
    expect(entries.get(name)!.equals(await read(rec!.storage_key))).toBe(true);
    expect([...entries.keys()].filter((n) => n.startsWith('images/'))).toHaveLength(2);
    for (const folder of ['imports/', 'conversations/', 'family-memories/', 'flipbooks/']) expect([...entries.keys()].some((n) => n.startsWith(folder))).toBe(true);
    expect(JSON.parse(entries.get('manifest.json')!.toString())).toMatchObject({ missing: [] });
    // Asked again: the finished export is reused.
    expect((await get('/api/privacy/access')).json().downloadUrl).toBe(downloadUrl);
    // The same is answered by the format route.
    expect((await get('/api/user/data-export?format=zip')).statusCode).toBe(200);
    expect(sa.mediaBytes).toBeGreaterThan(0);
  }, 60000);

  it('a file missing from storage is named in the manifest; the zip still completes', async () => {
    const c = await signUp(t.app);
    const sc = await seedAccount(t.database.sql, storage, c, { stories: 1, recordings: 1, images: 1 });
    const [rec] = await t.database.sql<{ storage_key: string }[]>`select storage_key from recordings where user_id = ${c.userId}`;
    await storage.delete(rec!.storage_key);
    const res = await post('/api/user/export-data', {}, c);
    const done = await finished(res.json().id, c);
    expect(done.status).toBe('completed');
    const entries = await unzip((await get(done.file_url, c)).rawPayload);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString());
    expect(manifest.missing).toEqual([expect.objectContaining({ name: expect.stringMatching(/^recordings\//) })]);
    expect(sc.keys.length).toBeGreaterThan(5);
  }, 60000);
});

describe('download rules', () => {
  it('409 for a failed export, 410 for an expired one; the expiry sweep deletes the file', async () => {
    const res = await post('/api/user/export-data', { format: 'json' });
    const done = await finished(res.json().id);
    const [row] = await t.database.sql<{ storage_key: string }[]>`select storage_key from user_data_exports where id = ${done.id}`;
    await t.database.sql`update user_data_exports set expires_at = now() - interval '1 minute' where id = ${done.id}`;
    expect((await get(done.file_url)).statusCode).toBe(410);
    // The recurring sweep ran at the first drain and is next due in an hour: bring it forward.
    const moved = await t.database.sql`update jobs set run_at = now() where kind = 'data-export.expire' and status = 'queued' returning id`;
    expect(moved).toHaveLength(1);
    await t.app.coreJobs.drain();
    expect((await storage.head(row!.storage_key)).exists).toBe(false);
    const [after] = await t.database.sql`select storage_key from user_data_exports where id = ${done.id}`;
    expect(after!['storage_key']).toBeNull();

    const failed = await post('/api/user/export-data', { format: 'json' });
    await t.database.sql`update user_data_exports set status = 'failed', error = 'disk full' where id = ${failed.json().id}`;
    const refused = await get(`/api/user/data-exports/${failed.json().id}/download`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/failed/);
  });
});

describe('bad input', () => {
  it.each([
    ['GET', '/api/user/data-export?format=xml', undefined, 'format'],
    ['POST', '/api/user/export-data', { format: 'docx' }, 'format'],
    ['POST', '/api/user/export-data', { exportType: 'everything' }, 'exportType'],
    ['POST', '/api/settings/data-export', { export_type: 'photos' }, 'export_type'],
    ['POST', '/api/user/export-data', { format: 'json', extra: 1 }, 'extra'],
    ['GET', '/api/user/data-exports/not-a-uuid', undefined, 'id'],
  ])('%s %s %j → 400 naming %s, nothing queued', async (method, url, payload, field) => {
    const before = await t.database.sql`select count(*)::int as n from user_data_exports`;
    const res = await t.app.inject({ method: method as 'GET' | 'POST', url, headers: a.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(field);
    expect(await t.database.sql`select count(*)::int as n from user_data_exports`).toEqual(before);
  });

  it('401 without a session', async () => {
    for (const url of ['/api/user/data-export', '/api/privacy/access', '/api/settings/data-export']) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('permissions', () => {
  it('an export is its owner’s alone: family members and strangers get 404 and learn nothing', async () => {
    const actors = await createFamilyActors(t.app, t.database.sql);
    const res = await post('/api/user/export-data', { format: 'json' }, actors.owner);
    const id = res.json().id as string;
    await finished(id, actors.owner);
    const mine = { owner: 200, contributor: 404, viewer: 404, removed: 404, stranger: 404 } as const;
    const mismatches = await runPermissionMatrix(t.app, actors, [
      { name: 'get export', method: 'GET', url: `/api/user/data-exports/${id}`, expect: mine },
      { name: 'download export', method: 'GET', url: `/api/user/data-exports/${id}/download`, expect: mine },
    ]);
    expect(mismatches).toEqual([]);
    // Everyone else's list and newest-export routes answer their own exports only.
    const list = await get('/api/settings/data-export', actors.stranger);
    expect(list.json().exports).toEqual([]);
  });
});
