// Shared pieces of the email benches: a fresh, migrated `bench_email_<random>` database (on the server of
// BENCH_DATABASE_URL / DATABASE_URL, else on an embedded server started for the run), dropped at the end.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { databaseUrl, runMigrations, startEmbeddedPostgres } from '@story/db';
import { Cleanup } from '../lib/cleanup';
import { freePort } from '../lib/processes';

export const say = (line: string) => process.stderr.write(`[bench:email] ${line}\n`);

export interface EmailBenchDatabase {
  url: string;
  name: string;
  server: string;
}

async function withAdmin(adminUrl: string, run: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function prepareEmailDatabase(cleanup: Cleanup): Promise<EmailBenchDatabase> {
  const given = process.env['BENCH_DATABASE_URL'] || process.env['DATABASE_URL'];
  let adminUrl: string;
  if (given) adminUrl = databaseUrl(given, 'postgres');
  else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-email-pg-'));
    chmodSync(dir, 0o755);
    cleanup.add('remove embedded data directory', async () => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    say(`starting embedded PostgreSQL on 127.0.0.1:${port}`);
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port });
    cleanup.add('stop embedded PostgreSQL', () => server.stop());
    adminUrl = server.adminUrl;
  }
  const name = `bench_email_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (sql) => sql.unsafe(`create database "${name}"`));
  const drop = () => withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
  cleanup.add(`drop database ${name}`, given ? drop : () => drop().catch(() => undefined));
  const url = databaseUrl(adminUrl, name);
  await runMigrations(url);
  const u = new URL(adminUrl);
  u.username = '';
  u.password = '';
  return { url, name, server: given ? u.toString() : 'embedded (started for this run)' };
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

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A plain text table: first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
