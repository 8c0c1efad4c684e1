// Tests only (run by Jest with the shared preset): a fresh database per test file, cloned from the migrated template of the global setup (fast:
// CREATE DATABASE ... TEMPLATE copies files, no migration replay).
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { createDbClient, type DbClient } from '../client';
import { databaseUrl } from '../database-url';

export interface TestDatabase extends DbClient {
  url: string;
  name: string;
  /** Close the pool and drop the database. */
  drop(): Promise<void>;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run tests through jest with the shared preset (global setup)`);
  return value;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = env('STORY_TEST_ADMIN_URL');
  const template = env('STORY_TEST_TEMPLATE');
  const name = `story_t_${template.split('_')[2]}_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin`create database ${admin(name)} template ${admin(template)}`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = databaseUrl(adminUrl, name);
  const client = createDbClient(url, { max: 5, applicationName: 'tests' });
  return {
    ...client,
    url,
    name,
    async drop() {
      await client.close();
      const a = postgres(adminUrl, { max: 1, onnotice: () => undefined });
      try {
        await a`drop database if exists ${a(name)} with (force)`;
      } finally {
        await a.end({ timeout: 5 });
      }
    },
  };
}
