// The same upload routes with the S3 adapter against s3rver (a local S3 fake): the gallery upload lands in
// the bucket under POST /api/upload/s3, and /api/upload-url hands out a real presigned PUT whose object is
// read back through its fileUrl and removed by DELETE /api/upload/delete.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { signUp, type SignedUp } from '../../test/helper';
import { buildImportsApp, multipart, type ImportsHarness } from '../imports/test/imports.harness';

// s3rver ships no types; these are the calls this test makes.
interface S3Fake {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3Fake;

describe('uploads on S3 storage', () => {
  let s3: S3Fake;
  let h: ImportsHarness;
  let user: SignedUp;

  beforeAll(async () => {
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(os.tmpdir(), 's3rver-')), configureBuckets: [{ name: 'media-test' }] });
    const { port } = await s3.run();
    h = await buildImportsApp(undefined, {
      S3_BUCKET: 'media-test',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    user = await signUp(h.app);
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await s3.close();
  });

  it('stores a gallery image and its thumbnail in the bucket; the path must name s3', async () => {
    expect(h.storage.provider).toBe('s3');
    const data = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'purple' } }).png().toBuffer();
    const body = multipart({ filename: 'a.png', type: 'image/png', data });
    const wrong = await h.app.inject({ method: 'POST', url: '/api/upload/local', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(wrong.statusCode).toBe(400);
    const res = await h.app.inject({ method: 'POST', url: '/api/upload/s3', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    const [row] = await h.database.sql`select storage_key, thumbnail_key from images where id = ${res.json().id}`;
    expect(await h.storage.head(row!['storage_key'] as string)).toMatchObject({ exists: true, size: data.length });
    expect((await h.storage.head(row!['thumbnail_key'] as string)).exists).toBe(true);
    const file = await h.app.inject({ method: 'GET', url: `/api/images/${res.json().id}/file`, headers: user.headers });
    expect(file.rawPayload.equals(data)).toBe(true);
  });

  it('presigns a real S3 PUT, serves the object through fileUrl and deletes it', async () => {
    const bytes = Buffer.from('%PDF-1.4 presigned upload body');
    const p = await h.app.inject({ method: 'POST', url: '/api/upload-url', headers: user.headers, payload: { fileName: 'a.pdf', fileType: 'application/pdf', folder: 'documents', fileSize: bytes.length } });
    expect(p.statusCode).toBe(200);
    const ticket = p.json();
    expect(ticket.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media-test\/uploads\//);
    const put = await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body: bytes });
    expect(put.status).toBe(200);
    const read = await h.app.inject({ method: 'GET', url: new URL(ticket.fileUrl, 'http://x').pathname, headers: user.headers });
    expect(read.rawPayload.equals(bytes)).toBe(true);
    const del = await h.app.inject({ method: 'DELETE', url: '/api/upload/delete', headers: user.headers, payload: { key: ticket.key } });
    expect(del.statusCode).toBe(200);
    expect((await h.storage.head(ticket.key)).exists).toBe(false);
  });
});
