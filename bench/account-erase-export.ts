// Account erasure and data export bench, on real PostgreSQL and local storage:
//
//  - one account with 1,000 stories, 500 recordings and 200 images (real files, BENCH_FILE_KB each,
//    default 200) plus rows in every other table that can hold its data (the tests' seedAccount), next
//    to a second account that must come through untouched;
//  - in a child process (bench/lib/data-export-child.ts, bundled, plain node), five interleaved rounds of:
//    the baseline, the raw storage read of exactly the account's media files (ObjectStorage.get drained,
//    one file after another); and the data export zip stream (data.json + every media file, the export's
//    own code) drained as it is produced. Best round of each;
//  - in a fresh child, the zip written into storage as the data-export.build job does: its peak RSS
//    (VmHWM) is the export's; its rate (every byte read and written) is reported, not the target;
//  - the finished zip downloaded through core-api's route over HTTP (reported);
//  - POST /api/privacy/erase through core-api, then the storage sweep jobs drained: wall time, and a check
//    that no table names the account and storage keeps none of its files, while the other account's
//    rows and files are all there.
//
// Targets: erase + sweep < 10 s leaving nothing; zip >= 70% of the raw read rate; export peak RSS < 150 MB.
// Run: npx tsx --tsconfig tsconfig.base.json bench/account-erase-export.ts
//      (BENCH_DATABASE_URL or DATABASE_URL for an existing server, else an embedded one).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { createDbClient, runMigrations } from '@story/db';
import { createObjectStorage, type ObjectStorage } from '@story/providers';
import { buildApp } from '../apps/core-api/src/app';
import { loadConfig } from '../apps/core-api/src/config';
import { MEDIA_KINDS, ownedFiles } from '../apps/core-api/src/features/privacy/owned-files';
import { seedAccount } from '../apps/core-api/src/test/account-factories';
import { traces } from '../apps/core-api/src/test/traces';
import { runBench, type Cleanup } from './lib/cleanup';
import { prepareDatabase } from './lib/database';
import { writeJson } from './lib/report';

const MB = 1024 * 1024;
const FILE_KB = Number(process.env['BENCH_FILE_KB'] ?? 200);
const COUNTS = { stories: 1000, recordings: 500, images: 200 };
const ERASE_LIMIT_S = 10;
const RATIO_TARGET = 0.7;
const RSS_LIMIT_MB = 150;
const RESULTS_FILE = path.join(__dirname, 'results', 'account-erase-export.json');
const say = (line: string) => process.stderr.write(`[bench:privacy] ${line}\n`);
const execFileAsync = promisify(execFile);

async function main(cleanup: Cleanup): Promise<number> {
  const db = await prepareDatabase(cleanup, say, 'bench_privacy');
  say(`database ${db.name}; migrating`);
  await runMigrations(db.url);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-privacy-'));
  cleanup.add('remove data directory', async () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, STORAGE_DRIVER: 'local', RATE_LIMIT_SCALE: '1000000',
    JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-0123456789', UPLOAD_TICKET_SECRET: 'bench-upload-ticket-secret-long-enough-0123456789',
  });
  if (config.storage.driver !== 'local') throw new Error('the bench expects local storage');
  const storageRoot = config.storage.root;
  const database = createDbClient(db.url, { max: 5, applicationName: 'bench' });
  cleanup.add('close database pool', () => database.close());
  const app = await buildApp({ config, deps: { database } });
  cleanup.add('close app', () => app.close());
  await app.ready();
  const storage: ObjectStorage = createObjectStorage(config.storage, { publicBaseUrl: 'http://127.0.0.1' });

  const signUp = async (label: string) => {
    const email = `${label}.${Date.now().toString(36)}@example.test`;
    const res = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: 'bench-password-1', fullName: label } });
    if (res.statusCode !== 201) throw new Error(`signup ${res.statusCode}`);
    return { userId: res.json().user.id as string, email, headers: { authorization: `Bearer ${res.json().session.access_token}` } };
  };
  const a = await signUp('erased');
  const b = await signUp('kept');
  say(`seeding ${COUNTS.stories} stories, ${COUNTS.recordings} recordings, ${COUNTS.images} images of ${FILE_KB} KB`);
  const seeded = await seedAccount(database.sql, storage, a, { ...COUNTS, fileBytes: FILE_KB * 1024 });
  const kept = await seedAccount(database.sql, storage, b, { stories: 5, recordings: 5, images: 5, fileBytes: FILE_KB * 1024 });
  const media = (await ownedFiles(database.sql, a.userId)).filter((f) => MEDIA_KINDS.includes(f.kind));
  say(`${media.length} media files, ${(seeded.mediaBytes / MB).toFixed(1)} MB; ${seeded.keys.length} objects in all`);

  const [row] = await database.sql<{ id: string }[]>`insert into user_data_exports (user_id, export_type, format) values (${a.userId}, 'all', 'zip') returning id`;
  if (!row) throw new Error('export row not inserted');
  const exportId = row.id;
  say('raw reads and zip streams in a child process (5 rounds each, interleaved), then the build in a fresh one');
  // The child runs as plain node on an esbuild bundle (as core-api is deployed), not under tsx, whose
  // compiler would add its own tens of MB to the RSS measured.
  // Inside the repository, so its npm packages resolve from node_modules.
  const bundle = path.join(__dirname, 'results', 'export-child.cjs');
  await build({
    entryPoints: [path.join(__dirname, 'lib', 'data-export-child.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'cjs',
    target: 'node20', packages: 'external', tsconfig: path.join(__dirname, '..', 'tsconfig.base.json'), logLevel: 'warning',
  });
  const child = async <T>(mode: 'rates' | 'build'): Promise<T> =>
    JSON.parse((await execFileAsync(process.execPath, [bundle, mode, db.url, storageRoot, exportId], { maxBuffer: 4 * MB, env: process.env })).stdout) as T;
  const rates = await child<{ rawMs: number; zipMs: number; zipBytes: number; jsonMs: number }>('rates');
  const built = await child<{ buildMs: number; size: number; peakMb: number; startPeakMb: number }>('build');
  const rawRate = seeded.mediaBytes / MB / (rates.rawMs / 1000);
  const zipRate = seeded.mediaBytes / MB / (rates.zipMs / 1000);
  const buildRate = seeded.mediaBytes / MB / (built.buildMs / 1000);
  const rawMs = rates.rawMs;
  const maxPeak = built.peakMb;

  // The finished zip through the route, over HTTP, streamed and counted.
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const t1 = performance.now();
  const res = await fetch(`${address}/api/user/data-exports/${exportId}/download`, { headers: a.headers });
  if (res.status !== 200 || !res.body) throw new Error(`download answered ${res.status}`);
  let downloaded = 0;
  for await (const chunk of res.body) downloaded += (chunk as Uint8Array).byteLength;
  const downloadMs = performance.now() - t1;

  // Erasure: the request, then the storage sweep to its end.
  const t2 = performance.now();
  const erase = await app.inject({ method: 'POST', url: '/api/privacy/erase', headers: a.headers, payload: { confirmEmail: a.email, reason: 'bench' } });
  if (erase.statusCode !== 200) throw new Error(`erase answered ${erase.statusCode} ${erase.body}`);
  const requestMs = performance.now() - t2;
  await app.coreJobs.drain();
  const eraseMs = performance.now() - t2;

  const left = await traces(database.sql, a.userId);
  const leftEmail = await traces(database.sql, a.email);
  let leftObjects = 0;
  for (const key of seeded.keys) if ((await storage.head(key)).exists) leftObjects += 1;
  let keptMissing = 0;
  for (const key of kept.keys) if (!(await storage.head(key)).exists) keptMissing += 1;
  const [bRows = { n: 0 }] = await database.sql<{ n: number }[]>`select count(*)::int as n from stories where user_id = ${b.userId}`;

  const checks = {
    eraseUnder10s: eraseMs / 1000 < ERASE_LIMIT_S,
    nothingLeft: Object.keys(left).length === 0 && Object.keys(leftEmail).length === 0 && leftObjects === 0,
    otherUntouched: keptMissing === 0 && bRows.n === 5,
    zipRatio: zipRate / rawRate >= RATIO_TARGET,
    rssUnder150: maxPeak < RSS_LIMIT_MB,
  };
  const report = {
    files: media.length, mediaMb: seeded.mediaBytes / MB, objects: seeded.keys.length,
    raw: { ms: rawMs, mbPerS: rawRate },
    zip: { ms: rates.zipMs, mbPerS: zipRate, ratio: zipRate / rawRate, sizeMb: rates.zipBytes / MB },
    json: { ms: rates.jsonMs },
    build: { ms: built.buildMs, mbPerS: buildRate, ratio: buildRate / rawRate, storedMb: built.size / MB, peakRssMb: maxPeak, peakRssBeforeMb: built.startPeakMb },
    download: { ms: downloadMs, mb: downloaded / MB, mbPerS: downloaded / MB / (downloadMs / 1000), ratio: downloaded / MB / (downloadMs / 1000) / rawRate },
    erase: { requestMs, totalMs: eraseMs, left, leftEmail, leftObjects, keptMissing },
    met: checks,
    // The list `npm run bench -- --all` collects into bench/results/summary.md.
    checks: [
      { name: 'erase 1,000 stories, 500 recordings, 200 images (request + storage sweep)', target: '< 10 s', actual: `${(eraseMs / 1000).toFixed(2)} s`, met: checks.eraseUnder10s },
      { name: 'nothing of the erased account left; the other account untouched', target: '0 rows, 0 objects', actual: `${Object.keys(left).length + Object.keys(leftEmail).length} columns, ${leftObjects} objects; ${keptMissing} of the other's files missing`, met: checks.nothingLeft && checks.otherUntouched },
      { name: 'data export zip stream vs raw storage read', target: '>= 70%', actual: `${((zipRate / rawRate) * 100).toFixed(0)}% (${zipRate.toFixed(0)} vs ${rawRate.toFixed(0)} MB/s)`, met: checks.zipRatio },
      { name: 'export build peak RSS', target: '< 150 MB', actual: `${maxPeak.toFixed(0)} MB`, met: checks.rssUnder150 },
    ],
  };
  writeJson(RESULTS_FILE, report);
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const lines = [
    `account: ${COUNTS.stories} stories, ${media.length} media files (${report.mediaMb.toFixed(1)} MB), ${seeded.keys.length} stored objects`,
    `baseline raw storage read        ${rawRate.toFixed(1)} MB/s  (${rawMs.toFixed(0)} ms)`,
    `data export zip stream           ${zipRate.toFixed(1)} MB/s  (${rates.zipMs.toFixed(0)} ms, zip ${report.zip.sizeMb.toFixed(1)} MB)  = ${(report.zip.ratio * 100).toFixed(0)}% of raw  [target >= 70%: ${mark(checks.zipRatio)}]`,
    `  of which data.json (every row)  ${rates.jsonMs.toFixed(0)} ms when made alone`,
    `export build process peak RSS    ${maxPeak.toFixed(0)} MB (${built.startPeakMb.toFixed(0)} MB before it began)  [target < 150 MB: ${mark(checks.rssUnder150)}]`,
    `export job build into storage    ${buildRate.toFixed(1)} MB/s = ${(report.build.ratio * 100).toFixed(0)}% of raw (reads and writes every byte)`,
    `zip download over HTTP           ${report.download.mbPerS.toFixed(1)} MB/s = ${(report.download.ratio * 100).toFixed(0)}% of raw`,
    `erase (request ${requestMs.toFixed(0)} ms + sweep)  ${(eraseMs / 1000).toFixed(2)} s  [target < 10 s: ${mark(checks.eraseUnder10s)}]`,
    `left behind: ${Object.keys(left).length} columns naming the id, ${Object.keys(leftEmail).length} naming the email, ${leftObjects} objects  [${mark(checks.nothingLeft)}]`,
    `other account: ${keptMissing} of ${kept.keys.length} objects missing, ${bRows.n} stories  [${mark(checks.otherUntouched)}]`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

runBench(main, say);
