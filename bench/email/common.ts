// Shared pieces of the email benches: a fresh, migrated `bench_email_<random>` database (on the server of
// BENCH_DATABASE_URL / DATABASE_URL, else on an embedded server started for the run), dropped at the end.
import { runMigrations } from '@story/db';
import { Cleanup } from '../lib/cleanup';
import { prepareDatabase, type BenchDatabase } from '../lib/database';

export const say = (line: string) => process.stderr.write(`[bench:email] ${line}\n`);

/** A fresh `bench_email_<random>` database (see bench/lib/database.ts), migrated. */
export async function prepareEmailDatabase(cleanup: Cleanup): Promise<BenchDatabase> {
  const db = await prepareDatabase(cleanup, say, 'bench_email');
  await runMigrations(db.url);
  return db;
}

/** Run main with cleanup on exit and on SIGINT/SIGTERM, like bench/run.ts. */
export function runBench(main: (cleanup: Cleanup) => Promise<number>): void {
  const cleanup = new Cleanup();
  const onSignal = (signal: NodeJS.Signals) => {
    say(`${signal}: cleaning up`);
    void cleanup.runAll().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  main(cleanup)
    .then(
      async (code) => {
        await cleanup.runAll();
        process.exit(code);
      },
      async (err: unknown) => {
        say(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        await cleanup.runAll();
        process.exit(1);
      },
    );
}

export { median } from '../lib/report';

/** A plain text table: first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
