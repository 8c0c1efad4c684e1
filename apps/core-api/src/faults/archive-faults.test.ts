// Fault injection on the memories archive download (GET /api/account/archive/{id}/download), with the real
// local storage adapter and a real HTTP connection:
//  - a file removed from storage after the archive was opened: the download still answers a complete zip
//    (unzip -t), the file is in manifest.json with included false and under "missing", nothing else lost;
//  - a client that disconnects mid-archive: every storage stream the download opened is closed and the
//    process holds no more open files than before (no leak), and the app serves the next download.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import type { ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../test/helper';
import { newRecordingRow, setMemoriesProfile } from '../test/memories-factories';

const run = promisify(execFile);

let t: TestContext;
let owner: SignedUp;
let store: ObjectStorage;
let dir: string;
let base: string;
/** Storage streams the downloads opened, and whether each was closed. */
const opened: { key: string; closed: boolean }[] = [];
const keys: string[] = [];

beforeAll(async () => {
  t = await buildTestApp(
    {},
    {
      providers: (p) => {
        store = p.storage;
        return {
          storage: {
            ...p.storage,
            get: async (key, range) => {
              const object = await p.storage.get(key, range);
              const entry = { key, closed: false };
              opened.push(entry);
              object.body.once('close', () => (entry.closed = true));
              return object;
            },
          },
        };
      },
    },
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'archive-faults-'));
  owner = await signUp(t.app);
  await setMemoriesProfile(t.database.sql, owner.userId, { timezone: 'UTC' });
  // Ten recordings of 2 MB each: big enough that a client reading one chunk leaves the download mid-way.
  for (let i = 0; i < 10; i++) {
    const rec = await newRecordingRow(t.database.sql, store, owner.userId, { title: `Take ${i}`, at: new Date(Date.UTC(2026, 4, 1, 12, 0, i)), data: Buffer.alloc(2 * 1024 * 1024, 65 + i) });
    keys.push(rec.key);
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function openArchive(): Promise<{ jobId: string; part: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/account/archive', headers: owner.headers, payload: { storytellerId: owner.userId } });
  expect(res.statusCode).toBe(201);
  const body = res.json() as { job: { id: string }; parts: { part: string }[] };
  expect(body.parts).toHaveLength(1);
  return { jobId: body.job.id, part: body.parts[0]!.part };
}

const downloadUrl = (jobId: string, part: string) => `${base}/api/account/archive/${jobId}/download?part=${encodeURIComponent(part)}`;

function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, zipfile) => {
      if (err || !zipfile) return reject(err);
      const out = new Map<string, Buffer>();
      zipfile.on('entry', (entry: yauzl.Entry) =>
        zipfile.openReadStream(entry, async (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          out.set(entry.fileName, Buffer.concat(chunks));
          zipfile.readEntry();
        }),
      );
      zipfile.on('end', () => resolve(out));
      zipfile.on('error', reject);
      zipfile.readEntry();
    });
  });
}

const openFiles = () => readdirSync('/proc/self/fd').length;

it('a file removed from storage after the archive was opened: a complete zip, the file listed with included false', async () => {
  const { jobId, part } = await openArchive();
  await store.delete(keys[3]!);
  const res = await fetch(downloadUrl(jobId, part), { headers: owner.headers });
  expect(res.status).toBe(200);
  const zip = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length'))).toBe(zip.length);
  const file = path.join(dir, 'missing.zip');
  await writeFile(file, zip);
  expect((await run('unzip', ['-t', file])).stdout).toMatch(/No errors detected/);
  const entries = await zipEntries(zip);
  const manifest = JSON.parse(entries.get('manifest.json')!.toString());
  const lost = 'recordings/2026-05-01-Take 3.mp3';
  expect(manifest.files.find((f: { path: string }) => f.path === lost)).toMatchObject({ included: false });
  expect(manifest.missing).toEqual([expect.objectContaining({ path: lost, reason: 'not found in storage' })]);
  expect(entries.has(lost)).toBe(false);
  // Every other recording is there, byte for byte.
  for (let i = 0; i < 10; i++) if (i !== 3) expect(entries.get(`recordings/2026-05-01-Take ${i}.mp3`)?.equals(Buffer.alloc(2 * 1024 * 1024, 65 + i))).toBe(true);
});

it('a client disconnecting mid-archive: every storage stream it opened is closed, no file stays open, the next download works', async () => {
  const { jobId, part } = await openArchive();
  const before = openFiles();
  opened.length = 0;
  const received = await new Promise<number>((resolve, reject) => {
    const req = http.get(downloadUrl(jobId, part), { headers: owner.headers }, (res) => {
      expect(res.statusCode).toBe(200);
      let got = 0;
      res.on('data', (chunk: Buffer) => {
        got += chunk.length;
        // Well into the second recording: hang up.
        if (got > 3 * 1024 * 1024) {
          req.destroy();
          resolve(got);
        }
      });
      res.on('end', () => reject(new Error('the whole archive arrived before the client hung up')));
    });
    req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
  });
  expect(received).toBeLessThan(20 * 1024 * 1024);
  expect(opened.length).toBeGreaterThan(0);
  // The server notices the closed socket and tears the zip stream down.
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && (opened.some((o) => !o.closed) || openFiles() > before)) await new Promise((r) => setTimeout(r, 50));
  expect(opened.filter((o) => !o.closed)).toEqual([]);
  expect(openFiles()).toBeLessThanOrEqual(before);
  // And the app is fine: the same archive downloads whole.
  const again = await fetch(downloadUrl(jobId, part), { headers: owner.headers });
  expect(again.status).toBe(200);
  expect((await again.arrayBuffer()).byteLength).toBe(Number(again.headers.get('content-length')));
});
