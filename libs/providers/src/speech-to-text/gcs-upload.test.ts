// The real @google-cloud/storage client against a local fake of the Cloud Storage JSON API upload.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createGcsUploader } from './gcs-upload';
import { mediaFromBuffer, mediaFromFile } from './speech-to-text.port';

let server: http.Server;
let endpoint: string;
const received: { method: string; url: string; body: Buffer }[] = [];
let failNext = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body: Buffer.concat(chunks) });
      if (failNext > 0) {
        failNext--;
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 503, message: 'backend error' } }));
        return;
      }
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('name');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'storage#object', bucket: 'stt-media', name, size: '0' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

it('uploads the media to the bucket and returns its gs:// URI', async () => {
  const upload = createGcsUploader({ bucket: 'stt-media', apiEndpoint: endpoint, projectId: 'test-project' });
  const media = Buffer.from('RIFF....WAVEfmt fake audio bytes for the long-running path');
  const uri = await upload(mediaFromBuffer(media), { mimeType: 'audio/wav' });
  expect(uri).toMatch(/^gs:\/\/stt-media\/speech-to-text\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
  const request = received.at(-1)!;
  expect(request.method).toBe('POST');
  expect(request.url).toContain('/upload/storage/v1/b/stt-media/o');
  expect(request.url).toContain(`name=${encodeURIComponent(uri.replace('gs://stt-media/', ''))}`);
  expect(request.body.includes(media)).toBe(true);
  expect(request.body.toString()).toContain('audio/wav');
});

it('streams a file from disk into the bucket', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gcs-file-'));
  try {
    const file = join(dir, 'media.webm');
    const media = Buffer.alloc(256 * 1024, 7);
    await writeFile(file, media);
    const upload = createGcsUploader({ bucket: 'stt-media', apiEndpoint: endpoint, projectId: 'test-project' });
    const uri = await upload(mediaFromFile(file, media.length), { mimeType: 'audio/webm' });
    expect(uri).toMatch(/^gs:\/\/stt-media\/speech-to-text\//);
    expect(received.at(-1)!.body.includes(media)).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('reports a store that keeps failing as unavailable, in our words', async () => {
  failNext = 10;
  const upload = createGcsUploader({ bucket: 'stt-media', apiEndpoint: endpoint, projectId: 'test-project' });
  await expect(upload(mediaFromBuffer(Buffer.from('x')), { mimeType: 'audio/wav' })).rejects.toMatchObject({
    kind: 'unavailable',
    provider: 'google',
    message: 'Could not store the media for long-running recognition',
  });
  failNext = 0;
});
