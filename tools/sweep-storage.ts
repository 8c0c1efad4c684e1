// `npm run storage:sweep [-- --delete] [--settle-seconds N]`: sweep an existing bucket once for objects no
// row points to (docs/reliability.md "Orphaned bytes"). Reads the same environment as the services
// (S3_* or $DATA_DIR/storage, DATABASE_URL or the embedded server of a running `npm start`). Without
// --delete it only counts; with it, each candidate is checked again after the settle time, then deleted.
import { loadOrExit, loadPlatformConfig } from '@story/config';
import { embeddedDatabaseUrl } from '@story/db';
import { createObjectStorage } from '@story/providers';
import postgres from 'postgres';
import { sweepBucket } from '../apps/core-api/src/features/privacy/storage-sweep';

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const config = loadOrExit(() => loadPlatformConfig(process.env));
  if (config.storage.driver === 'none') throw new Error('STORAGE_DRIVER=none: there is no bucket to sweep');
  const deleteOrphans = process.argv.includes('--delete');
  const settleSeconds = Number(argValue('--settle-seconds') ?? 60);
  if (!Number.isFinite(settleSeconds) || settleSeconds < 0) throw new Error('--settle-seconds must be a number of seconds');
  const sql = postgres(config.database.url ?? embeddedDatabaseUrl(config.database.embeddedPort), { max: 2, onnotice: () => undefined });
  const storage = createObjectStorage(config.storage, { publicBaseUrl: '' });
  const where = config.storage.driver === 's3' ? `bucket ${config.storage.bucket}` : config.storage.root;
  process.stdout.write(`${deleteOrphans ? 'sweeping' : 'counting (dry run; --delete deletes)'} objects no row points to in ${where}\n`);
  try {
    const reports = await sweepBucket({ sql, storage, deleteOrphans, settleMs: settleSeconds * 1000 });
    for (const r of reports) {
      process.stdout.write(
        `${r.folder.padEnd(14)} listed ${r.listed}, orphaned ${r.orphaned} (${(r.orphanedBytes / 1e6).toFixed(1)} MB), deleted ${r.deleted}` +
          `${r.examples.length ? `; e.g. ${r.examples.join(', ')}` : ''}\n`,
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`storage sweep failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
