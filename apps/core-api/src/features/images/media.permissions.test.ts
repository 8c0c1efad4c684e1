// Permission matrix (spec 000 Authentication 4-5) for imports, images, audio and presigned uploads: the
// owner, an active contributor and viewer of the owner's family, a removed member and a stranger. Imports and
// uploaded files are private (404 to everyone else); images and audio are seen by the family and changed only
// by the owner. After every refused change the database and storage are as they were. Also the upload-url
// round trip and its bad input.
import sharp from 'sharp';
import { allow, createFamilyActors, runPermissionMatrix, type Actor, type FamilyActors } from '../../test/permission-matrix';
import { buildImportsApp, multipart, type ImportsHarness } from '../imports/test/imports.harness';

const privateTo = (owner: number) => ({ owner, contributor: 404, viewer: 404, removed: 404, stranger: 404 });

describe('imports, images, audio and uploads: permission matrix', () => {
  let h: ImportsHarness;
  let a: FamilyActors;
  let imageId: string;
  let importId: string;
  let recordingId: string;
  let fileId: string;
  const fileBytes = Buffer.from('%PDF-1.4 a small pdf body for the upload-url test');

  const uploadImage = async (who: Actor) => {
    const data = await sharp({ create: { width: 20, height: 20, channels: 3, background: 'green' } }).jpeg().toBuffer();
    const body = multipart({ filename: 'a.jpg', type: 'image/jpeg', data });
    const res = await h.app.inject({ method: 'POST', url: '/api/upload/local', headers: { ...who.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const paste = async (who: Actor) => {
    const res = await h.app.inject({ method: 'POST', url: '/api/imports/paste', headers: who.headers, payload: { content: 'Chapter 1\n\n' + 'We lived by the mill. '.repeat(20) } });
    return res.json().id as string;
  };
  const presignAndPut = async (who: Actor) => {
    const p = await h.app.inject({ method: 'POST', url: '/api/upload-url', headers: who.headers, payload: { fileName: 'notes.pdf', fileType: 'application/pdf', folder: 'documents', fileSize: fileBytes.length } });
    expect(p.statusCode).toBe(200);
    const body = p.json();
    const put = await h.app.inject({ method: 'PUT', url: new URL(body.uploadUrl, 'http://x').pathname, headers: body.headers, payload: fileBytes });
    expect(put.statusCode).toBe(200);
    return body as { id: string; key: string; fileUrl: string };
  };

  beforeAll(async () => {
    h = await buildImportsApp();
    a = await createFamilyActors(h.app, h.database.sql);
    imageId = await uploadImage(a.owner);
    importId = await paste(a.owner);
    const key = `recordings/${a.owner.userId}/2026/01/voice.mp3`;
    await h.storage.put(key, Buffer.from('ID3 some audio bytes'), { contentType: 'audio/mpeg' });
    recordingId = (await h.database.sql`insert into recordings (user_id, title, storage_key, mime_type) values (${a.owner.userId}, 'Voice', ${key}, 'audio/mpeg') returning id`)[0]!['id'] as string;
    fileId = (await presignAndPut(a.owner)).id;
  }, 60_000);
  afterAll(() => h.close());

  it('holds for every route and actor, and a refused change changes nothing', async () => {
    const deleteTargets: Record<string, string> = {};
    const convertTargets: Record<string, string> = {};
    const fileTargets: Record<string, { id: string; key: string }> = {};
    const mismatches = await runPermissionMatrix(h.app, a, [
      { name: 'get image', method: 'GET', url: () => `/api/images/${imageId}`, expect: allow(200, 200, 200), check: (res) => expect((res.json() as { image: { id: string } }).image.id).toBe(imageId) },
      { name: 'image file', method: 'GET', url: () => `/api/images/${imageId}/file`, expect: allow(200, 200, 200) },
      {
        name: 'delete image',
        method: 'DELETE',
        prepare: async (actor) => ((deleteTargets[actor.name] = await uploadImage(a.owner)), { id: deleteTargets[actor.name]! }),
        url: (c) => `/api/images/${c.id}`,
        expect: allow(200, 403, 403),
      },
      { name: 'get import', method: 'GET', url: () => `/api/imports/${importId}`, expect: privateTo(200) },
      { name: 'process import', method: 'POST', url: () => `/api/imports/${importId}/process`, expect: privateTo(200), actors: ['contributor', 'viewer', 'removed', 'stranger', 'owner'] },
      {
        name: 'convert import',
        method: 'POST',
        prepare: async (actor) => ((convertTargets[actor.name] = await paste(a.owner)), { id: convertTargets[actor.name]! }),
        url: (c) => `/api/imports/${c.id}/convert`,
        payload: {},
        expect: privateTo(201),
      },
      { name: 'stream audio', method: 'GET', url: () => `/api/audio/${recordingId}`, expect: allow(200, 200, 200) },
      { name: 'share audio', method: 'POST', url: () => `/api/audio/${recordingId}/share`, payload: {}, expect: allow(201, 403, 403) },
      { name: 'read uploaded file', method: 'GET', url: () => `/api/upload/files/${fileId}`, expect: privateTo(200) },
      {
        name: 'delete uploaded file',
        method: 'DELETE',
        prepare: async (actor) => ((fileTargets[actor.name] = await presignAndPut(a.owner)), { id: fileTargets[actor.name]!.id }),
        url: '/api/upload/delete',
        payload: (c: { id: string }) => ({ id: c.id }),
        expect: privateTo(200),
      },
    ]);
    expect(mismatches).toEqual([]);

    const others = ['contributor', 'viewer', 'removed', 'stranger'];
    const sql = h.database.sql;
    // Images: only the owner's delete went through; the rest are there with their files.
    for (const name of others) expect((await sql`select 1 from images where id = ${deleteTargets[name]!}`).length).toBe(1);
    expect((await sql`select 1 from images where id = ${deleteTargets['owner']!}`).length).toBe(0);
    // Imports: no candidates written by others, no stories made from others' calls.
    expect((await sql`select candidates from imports where id = ${importId}`)[0]!['candidates']).not.toBeNull();
    for (const name of others) expect((await sql`select story_id from imports where id = ${convertTargets[name]!}`)[0]!['story_id']).toBeNull();
    expect((await sql`select count(*)::int as n from stories where metadata->>'source' = 'import'`)[0]!['n']).toBe(1);
    // Audio: one share link, the owner's.
    expect((await sql`select created_by from audio_shares`).map((r) => r['created_by'])).toEqual([a.owner.userId]);
    // Uploaded files: others' deletes changed neither row nor object.
    for (const name of others) {
      expect((await sql`select 1 from user_files where id = ${fileTargets[name]!.id}`).length).toBe(1);
      expect((await h.storage.head(fileTargets[name]!.key)).exists).toBe(true);
    }
    expect((await h.storage.head(fileTargets['owner']!.key)).exists).toBe(false);
    // Nobody else's gallery or import list shows the owner's things.
    for (const name of others) {
      const actor = a[name as keyof FamilyActors] as Actor;
      expect((await h.app.inject({ method: 'GET', url: '/api/images/user-gallery', headers: actor.headers })).json().images).toEqual([]);
      expect((await h.app.inject({ method: 'GET', url: '/api/imports', headers: actor.headers })).json().imports).toEqual([]);
    }
  });

  it('upload-url: presign, PUT, read back through fileUrl, delete by fileUrl; bad input named; quota 403 with no row', async () => {
    const owner = a.owner;
    const file = await presignAndPut(owner);
    const read = await h.app.inject({ method: 'GET', url: new URL(file.fileUrl, 'http://x').pathname, headers: owner.headers });
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(fileBytes)).toBe(true);
    const del = await h.app.inject({ method: 'DELETE', url: '/api/upload/delete', headers: owner.headers, payload: { fileUrl: file.fileUrl } });
    expect(del.json()).toEqual({ success: true, id: file.id, key: file.key });
    expect((await h.database.sql`select 1 from user_files where id = ${file.id}`).length).toBe(0);

    const rowsBefore = Number((await h.database.sql`select count(*)::int as n from user_files`)[0]!['n']);
    const cases: [object, number, RegExp][] = [
      [{ fileName: 'a.exe', fileType: 'application/x-msdownload', folder: 'docs' }, 400, /fileType/],
      [{ fileName: 'a.pdf', fileType: 'application/pdf', folder: '../etc' }, 400, /folder/],
      [{ fileName: 'a.pdf', fileType: 'application/pdf', folder: 'docs', fileSize: 60 * 1024 * 1024 }, 413, /^fileSize is over 50 MB/],
      [{ fileType: 'application/pdf', folder: 'docs' }, 400, /fileName/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await h.app.inject({ method: 'POST', url: '/api/upload-url', headers: owner.headers, payload });
      expect({ payload, status: res.statusCode }).toEqual({ payload, status });
      expect(`${res.json().error} ${res.json().details ?? ''}`).toMatch(message);
    }
    const noTarget = await h.app.inject({ method: 'DELETE', url: '/api/upload/delete', headers: owner.headers, payload: {} });
    expect(noTarget.statusCode).toBe(400);

    // Without a declared size the quota reserves the 50 MB maximum; a free account near 1 GB is refused.
    await h.database.sql`insert into user_files (user_id, storage_key, folder, file_name, content_type, size_bytes) values (${a.stranger.userId}, 'uploads/s/x.pdf', 'docs', 'x.pdf', 'application/pdf', ${1024 ** 3 - 10 * 1024 * 1024})`;
    const full = await h.app.inject({ method: 'POST', url: '/api/upload-url', headers: a.stranger.headers, payload: { fileName: 'b.pdf', fileType: 'application/pdf', folder: 'docs' } });
    expect(full.statusCode).toBe(403);
    expect(full.json()).toMatchObject({ limit: 'storage', tier: 'free' });
    const fits = await h.app.inject({ method: 'POST', url: '/api/upload-url', headers: a.stranger.headers, payload: { fileName: 'b.pdf', fileType: 'application/pdf', folder: 'docs', fileSize: 1000 } });
    expect(fits.statusCode).toBe(200);
    expect(Number((await h.database.sql`select count(*)::int as n from user_files`)[0]!['n'])).toBe(rowsBefore + 2);
  });
});
