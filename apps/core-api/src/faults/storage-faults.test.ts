// Fault injection: object storage unreachable during POST /api/recordings, with real parts. The app is
// configured for S3 (as in production) and pointed at s3rver, a real S3 wire server, which is then
// stopped; at a TCP server that accepts and resets; and at a proxy in front of s3rver that cuts the PUT
// mid-body. Each time: 502 in the core error shape, no recordings row, and no object left in the bucket.
// (recordings.test.ts covers 502 with a throwing adapter and 503 upload_failed for STORAGE_DRIVER=none;
// the last test here extends the 503 case with the error shape and what the library shows.)
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { createObjectStorage, type ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type TestContext } from '../test/helper';
import { makeTone, multipart } from '../test/conversations-factories';

const BUCKET = 'fault-media';

const s3Env = (endpoint: string) => ({
  STORAGE_DRIVER: 's3',
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: endpoint,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
});

async function upload(t: TestContext, headers: Record<string, string>, audio: Buffer) {
  const body = multipart([{ name: 'title', value: 'Grandpa at the harbour' }, { name: 'audio', value: audio, filename: 'a.wav', contentType: 'audio/wav' }]);
  return t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...headers, ...body.headers }, payload: body.payload });
}

function expectCoreError(body: string, status: number) {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(typeof parsed['error']).toBe('string');
  // No driver or socket text reaches the client.
  expect(body).not.toMatch(/ECONNREFUSED|ECONNRESET|socket|s3rver|127\.0\.0\.1|stack/i);
  return { status, parsed };
}

/** A TCP server on 127.0.0.1: `onConnection` decides what each accepted socket gets. */
async function tcpServer(onConnection: (socket: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('fault: storage unreachable during upload (core-api, S3 driver)', () => {
  let dir: string;
  let s3: S3rver;
  let s3Port: number;
  let direct: ObjectStorage;
  let audio: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'faults-s3rver-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
    s3Port = (await s3.run()).port;
    direct = createObjectStorage(
      { driver: 's3', bucket: BUCKET, endpoint: `http://127.0.0.1:${s3Port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
      { publicBaseUrl: 'http://127.0.0.1:3000' },
    );
    // 40 s of 8 kHz WAV (about 320 kB): large enough for the PUT to be cut in the middle of its body.
    audio = await makeTone(40);
  });
  afterAll(async () => {
    await s3.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  const objects = async (userId: string) => (await direct.list(`recordings/${userId}`)).objects.map((o) => o.key);
  const rows = async (t: TestContext, userId: string) => t.database.sql`select id, status from recordings where user_id = ${userId}`;

  it('a proxy that resets the connection mid-PUT: 502, no row, no object (and the same app saves once storage answers)', async () => {
    let cut = 0;
    let healed = false;
    // Forwards to s3rver; a PUT of a recording is cut after 64 kB of its request.
    const proxy = await tcpServer((client) => {
      const upstream = net.connect(s3Port, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      let seen = 0;
      let isPut: boolean | undefined;
      client.on('data', (chunk: Buffer) => {
        isPut ??= chunk.subarray(0, 4).toString() === 'PUT ' && chunk.toString('latin1', 0, 300).includes('/recordings/');
        seen += chunk.length;
        if (isPut && seen > 64 * 1024 && !healed) {
          cut++;
          upstream.destroy();
          client.resetAndDestroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => client.write(chunk));
      upstream.on('end', () => client.end());
      client.on('end', () => upstream.end());
    });
    const t = await buildTestApp(s3Env(`http://127.0.0.1:${proxy.port}`));
    try {
      const user = await signUp(t.app);
      const res = await upload(t, user.headers, audio);
      expect(res.statusCode).toBe(502);
      expectCoreError(res.body, 502);
      expect(cut).toBeGreaterThan(0);
      expect(await rows(t, user.userId)).toHaveLength(0);
      expect(await objects(user.userId)).toEqual([]);
      // The fault passes: the same app, through the same proxy, saves the recording once.
      healed = true;
      const ok = await upload(t, user.headers, audio);
      expect(ok.statusCode).toBe(201);
      expect(await rows(t, user.userId)).toHaveLength(1);
      expect(await objects(user.userId)).toHaveLength(1);
    } finally {
      await t.close();
      await proxy.close();
    }
  });

  it('a server that accepts and resets every connection: 502, no row', async () => {
    const resetter = await tcpServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const t = await buildTestApp(s3Env(`http://127.0.0.1:${resetter.port}`));
    try {
      const user = await signUp(t.app);
      const res = await upload(t, user.headers, audio);
      expect(res.statusCode).toBe(502);
      expectCoreError(res.body, 502);
      expect(await rows(t, user.userId)).toHaveLength(0);
      expect(await objects(user.userId)).toEqual([]);
    } finally {
      await t.close();
      await resetter.close();
    }
  });

  it('s3rver stopped after the app started: 502, no row, no object once it is back', async () => {
    const t = await buildTestApp(s3Env(`http://127.0.0.1:${s3Port}`));
    try {
      const user = await signUp(t.app);
      expect((await upload(t, user.headers, audio)).statusCode).toBe(201);
      await s3.close();
      const res = await upload(t, user.headers, audio);
      expect(res.statusCode).toBe(502);
      expectCoreError(res.body, 502);
      // Same data directory and port: the store comes back with what it held.
      s3 = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
      await s3.run();
      expect(await rows(t, user.userId)).toHaveLength(1);
      expect(await objects(user.userId)).toHaveLength(1);
      // And the same app saves again without a restart.
      expect((await upload(t, user.headers, audio)).statusCode).toBe(201);
      expect(await objects(user.userId)).toHaveLength(2);
    } finally {
      await t.close();
    }
  });

  it('storage unconfigured: 503 in the core shape, status upload_failed, and the library shows the failed row', async () => {
    const t = await buildTestApp({ STORAGE_DRIVER: 'none' });
    try {
      const user = await signUp(t.app);
      const res = await upload(t, user.headers, audio);
      expect(res.statusCode).toBe(503);
      const { parsed } = expectCoreError(res.body, 503);
      expect(parsed).toMatchObject({ status: 'upload_failed', recordingId: expect.any(String) });
      const stored = await rows(t, user.userId);
      expect(stored).toEqual([{ id: parsed['recordingId'], status: 'upload_failed' }]);
      const listed = (await t.app.inject({ method: 'GET', url: '/api/recordings', headers: user.headers })).json().recordings;
      expect(listed).toEqual([expect.objectContaining({ id: parsed['recordingId'], status: 'upload_failed' })]);
    } finally {
      await t.close();
    }
  });
});
