// The bench database: always a fresh `bench_<random>` database, on the server of BENCH_DATABASE_URL /
// DATABASE_URL, else on an embedded server started for this run. Dropped (and the server stopped) by
// the cleanup steps registered here.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { databaseUrl, startEmbeddedPostgres } from '@story/db';
import type { Cleanup } from './cleanup';
import { freePort } from './processes';

export interface BenchDatabase {
  url: string;
  name: string;
  /** Where it lives, without credentials (for the report). */
  server: string;
}

export async function prepareDatabase(cleanup: Cleanup, say: (line: string) => void, prefix = 'bench'): Promise<BenchDatabase> {
  const given = process.env['BENCH_DATABASE_URL'] || process.env['DATABASE_URL'];
  const adminUrl = given ? databaseUrl(given, 'postgres') : await startEmbedded(cleanup, say);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (sql) => sql.unsafe(`create database "${name}"`));
  const drop = () => withAdmin(adminUrl, (sql) => sql.unsafe(`drop database if exists "${name}" with (force)`));
  // On Ctrl-C the embedded server gets the signal too and may already be going down; its data
  // directory is removed anyway, so only a failed drop on a given server is worth reporting.
  cleanup.add(`drop database ${name}`, given ? drop : () => drop().catch(() => undefined));
  return { url: databaseUrl(adminUrl, name), name, server: given ? withoutCredentials(adminUrl) : 'embedded (started for this run)' };
}

async function startEmbedded(cleanup: Cleanup, say: (line: string) => void): Promise<string> {
  // As root PostgreSQL runs as the OS user postgres, which must be able to enter the directory.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'story-bench-pg-'));
  chmodSync(dir, 0o755);
  cleanup.add('remove embedded data directory', async () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  say(`starting embedded PostgreSQL on 127.0.0.1:${port}`);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port });
  cleanup.add('stop embedded PostgreSQL', () => server.stop());
  return server.adminUrl;
}

async function withAdmin(adminUrl: string, run: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function withoutCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString();
}
