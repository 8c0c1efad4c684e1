// `npm run db:migrate`: apply the committed migrations to DATABASE_URL.
import { loadOrExit, loadPlatformConfig } from '@story/config';
import { runMigrations } from '@story/db';

const config = loadOrExit(() => loadPlatformConfig(process.env));
if (!config.database.url) {
  process.stderr.write('DATABASE_URL is not set (npm start migrates the embedded database itself)\n');
  process.exit(1);
}
runMigrations(config.database.url).then(
  () => process.stdout.write('migrations applied\n'),
  (err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
