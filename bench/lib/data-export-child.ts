// The export side of bench/account-erase-export.ts, run as its own process (bundled by esbuild, plain node)
// so that its peak RSS (VmHWM) is the export's: args <database url> <storage root> <export id>; prints JSON.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDbClient } from '@story/db';
import { createObjectStorage } from '@story/providers';
import { jsonExportStream, zipExportStream } from '../../apps/core-api/src/features/data-export/export-files';
import { MEDIA_KINDS, ownedFiles } from '../../apps/core-api/src/features/privacy/owned-files';

function peakRssMb(): number {
  const kb = Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN);
  return kb / 1024;
}

const sink = () => new Writable({ write: (_c, _e, done) => done() });

/** Raw reads and the zip stream, interleaved, then one build into storage; raw reads and the zip stream, interleaved, then one real build; prints times and peak RSS. */
async function exportChild(dbUrl: string, storageRoot: string, exportId: string): Promise<void> {
  const client = createDbClient(dbUrl, { max: 3, applicationName: 'bench-export' });
  const storage = createObjectStorage({ driver: 'local', root: storageRoot }, { publicBaseUrl: 'http://127.0.0.1' });
  const [row] = await client.sql<{ id: string; user_id: string }[]>`select id, user_id from user_data_exports where id = ${exportId}`;
  if (!row) throw new Error('no export row');
  const media = (await ownedFiles(client.sql, row.user_id)).filter((f) => MEDIA_KINDS.includes(f.kind));
  const startPeakMb = peakRssMb();
  let rawMs = Infinity;
  let zipMs = Infinity;
  let zipBytes = 0;
  for (let round = 0; round < 3; round++) {
    let t0 = performance.now();
    for (const f of media) await pipeline((await storage.get(f.key)).body, sink());
    rawMs = Math.min(rawMs, performance.now() - t0);
    t0 = performance.now();
    const zip = await zipExportStream(client.sql, storage, { id: row.id, user_id: row.user_id, export_type: 'all' });
    let bytes = 0;
    await Promise.all([pipeline(zip.stream, new Writable({ write: (c: Buffer, _e, done) => ((bytes += c.length), done()) })), zip.done]);
    zipMs = Math.min(zipMs, performance.now() - t0);
    zipBytes = bytes;
  }
  const j0 = performance.now();
  await pipeline(jsonExportStream(client.sql, row.user_id, 'all'), sink());
  const jsonMs = performance.now() - j0;
  // What the data-export.build handler does for a zip: the stream into storage, then the row completed.
  // (The handler itself is not imported: its module brings the HTTP and job libraries, whose RSS is the
  // service's, not the export's.)
  const started = performance.now();
  const zip = await zipExportStream(client.sql, storage, { id: row.id, user_id: row.user_id, export_type: 'all' });
  const key = `data-exports/${row.user_id}/bench-${row.id}.zip`;
  const [stored] = await Promise.all([storage.put(key, zip.stream, { contentType: 'application/zip' }), zip.done]);
  const buildMs = performance.now() - started;
  await client.sql`update user_data_exports set status = 'completed', storage_key = ${key}, file_url = ${`/api/user/data-exports/${row.id}/download`},
                     file_size_bytes = ${stored.size}, completed_at = now(), expires_at = now() + interval '7 days' where id = ${row.id}`;
  process.stdout.write(JSON.stringify({ rawMs, zipMs, zipBytes, jsonMs, buildMs, status: 'completed', size: stored.size, peakMb: peakRssMb(), startPeakMb }));
  await client.close();
}

const [dbUrl, storageRoot, exportId] = process.argv.slice(2);
if (!dbUrl || !storageRoot || !exportId) throw new Error('usage: data-export-child <database url> <storage root> <export id>');
exportChild(dbUrl, storageRoot, exportId).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(String(err instanceof Error ? err.stack : err));
    process.exit(1);
  },
);
