// The export side of bench/account-erase-export.ts, run as its own process (bundled by esbuild, plain node,
// as core-api is deployed). Args: <rates|build> <database url> <storage root> <export id>; prints JSON.
//  - rates: five interleaved rounds of the raw storage read of the account's media files and of the data
//    export zip stream drained as produced (best of each), and data.json made alone once;
//  - build: in a fresh process, only what the data-export.build job does for a zip (the stream into
//    storage, the row completed), so its peak RSS (VmHWM) is the export's.
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

const counter = () => {
  const out = { bytes: 0, sink: new Writable({ write: (c: Buffer, _e, done) => ((out.bytes += c.length), done()) }) };
  return out;
};

async function run(mode: string, dbUrl: string, storageRoot: string, exportId: string): Promise<Record<string, unknown>> {
  const client = createDbClient(dbUrl, { max: 3, applicationName: 'bench-export' });
  const storage = createObjectStorage({ driver: 'local', root: storageRoot }, { publicBaseUrl: 'http://127.0.0.1' });
  try {
    const [row] = await client.sql<{ id: string; user_id: string }[]>`select id, user_id from user_data_exports where id = ${exportId}`;
    if (!row) throw new Error('no export row');
    const exportRow = { id: row.id, user_id: row.user_id, export_type: 'all' as const };
    const startPeakMb = peakRssMb();
    if (mode === 'build') {
      const started = performance.now();
      const zip = await zipExportStream(client.sql, storage, exportRow);
      const key = `data-exports/${row.user_id}/bench-${row.id}.zip`;
      const [stored] = await Promise.all([storage.put(key, zip.stream, { contentType: 'application/zip' }), zip.done]);
      const buildMs = performance.now() - started;
      await client.sql`update user_data_exports set status = 'completed', storage_key = ${key}, file_url = ${`/api/user/data-exports/${row.id}/download`},
                         file_size_bytes = ${stored.size}, completed_at = now(), expires_at = now() + interval '7 days' where id = ${row.id}`;
      return { buildMs, size: stored.size, peakMb: peakRssMb(), startPeakMb };
    }
    const media = (await ownedFiles(client.sql, row.user_id)).filter((f) => MEDIA_KINDS.includes(f.kind));
    let rawMs = Infinity;
    let zipMs = Infinity;
    let zipBytes = 0;
    for (let round = 0; round < 5; round++) {
      let t0 = performance.now();
      for (const f of media) await pipeline((await storage.get(f.key)).body, counter().sink);
      rawMs = Math.min(rawMs, performance.now() - t0);
      t0 = performance.now();
      const zip = await zipExportStream(client.sql, storage, exportRow);
      const out = counter();
      await Promise.all([pipeline(zip.stream, out.sink), zip.done]);
      zipMs = Math.min(zipMs, performance.now() - t0);
      zipBytes = out.bytes;
    }
    const j0 = performance.now();
    await pipeline(jsonExportStream(client.sql, row.user_id, 'all'), counter().sink);
    return { rawMs, zipMs, zipBytes, jsonMs: performance.now() - j0, peakMb: peakRssMb() };
  } finally {
    await client.close();
  }
}

const [mode, dbUrl, storageRoot, exportId] = process.argv.slice(2);
if (!mode || !dbUrl || !storageRoot || !exportId) throw new Error('usage: data-export-child <rates|build> <database url> <storage root> <export id>');
run(mode, dbUrl, storageRoot, exportId).then(
  (out) => {
    process.stdout.write(JSON.stringify(out));
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(String(err instanceof Error ? err.stack : err));
    process.exit(1);
  },
);
