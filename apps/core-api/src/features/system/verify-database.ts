// GET /api/system/verify-database: does the database this process talks to match the code? Every table
// and column of libs/db's schema must exist, and every migration in the migrations folder must be recorded
// as applied (drizzle's journal in drizzle.__drizzle_migrations, matched by the file's sha256, so an
// edited migration shows up as not applied). Read-only: it reports and never repairs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getTableColumns, getTableName, is } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { PgTable } from 'drizzle-orm/pg-core';
import { resolveMigrationsFolder, schema } from '@story/db';
import type { Sql } from 'postgres';

export interface DatabaseReport {
  ok: boolean;
  checkedAt: string;
  tables: { expected: number; present: number; missing: string[]; missingColumns: { table: string; column: string }[] };
  migrations: { expected: number; applied: number; pending: string[]; unknownApplied: number; latestApplied: string | null };
}

/** Every table of the code's schema with its column names. */
export function expectedTables(): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const value of Object.values(schema)) {
    if (is(value, PgTable)) tables.set(getTableName(value), Object.values(getTableColumns(value)).map((c) => c.name));
  }
  return tables;
}

/** The migrations folder's files in order, with drizzle's hash of each. */
export function expectedMigrations(folder = resolveMigrationsFolder()): { tag: string; hash: string }[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return files.map((f, i) => ({ tag: journal.entries[i]?.tag ?? `#${i}`, hash: f.hash }));
}

export async function verifyDatabase(sql: Sql, folder?: string): Promise<DatabaseReport> {
  const tables = expectedTables();
  const columns = await sql<{ table_name: string; column_name: string }[]>`
    select table_name, column_name from information_schema.columns where table_schema = 'public'`;
  const present = new Map<string, Set<string>>();
  for (const c of columns) {
    const set = present.get(c.table_name) ?? new Set<string>();
    set.add(c.column_name);
    present.set(c.table_name, set);
  }
  const missing: string[] = [];
  const missingColumns: { table: string; column: string }[] = [];
  for (const [table, cols] of tables) {
    const have = present.get(table);
    if (!have) {
      missing.push(table);
      continue;
    }
    for (const column of cols) if (!have.has(column)) missingColumns.push({ table, column });
  }

  const migrations = expectedMigrations(folder);
  const journalExists = (await sql`select 1 from information_schema.tables where table_schema = 'drizzle' and table_name = '__drizzle_migrations'`).length > 0;
  const applied = journalExists ? await sql<{ hash: string }[]>`select hash from drizzle.__drizzle_migrations order by created_at` : [];
  const appliedHashes = new Set(applied.map((a) => a.hash));
  const expectedHashes = new Set(migrations.map((m) => m.hash));
  const pending = migrations.filter((m) => !appliedHashes.has(m.hash)).map((m) => m.tag);
  const done = migrations.filter((m) => appliedHashes.has(m.hash));

  return {
    ok: missing.length === 0 && missingColumns.length === 0 && pending.length === 0,
    checkedAt: new Date().toISOString(),
    tables: { expected: tables.size, present: tables.size - missing.length, missing: missing.sort(), missingColumns },
    migrations: {
      expected: migrations.length,
      applied: done.length,
      pending,
      unknownApplied: applied.filter((a) => !expectedHashes.has(a.hash)).length,
      latestApplied: done.at(-1)?.tag ?? null,
    },
  };
}
