// Jest global setup (once per Jest run): a PostgreSQL server (TEST_DATABASE_URL, else an embedded one
// on a free port in a temp dir), and one migrated template database that every test file clones.
import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
// Jest loads global setup outside its module mapper, so path aliases do not resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { databaseUrl, runMigrations, startEmbeddedPostgres, type EmbeddedServer } from '../../db/src/index';
import { freePort } from './free-port';

declare global {
  var __STORY_PG__: { server?: EmbeddedServer; dir?: string; adminUrl: string; template: string } | undefined;
}

export default async function globalSetup(): Promise<void> {
  let adminUrl = process.env['TEST_DATABASE_URL'];
  let server: EmbeddedServer | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'story-pg-'));
    // PostgreSQL runs as the `postgres` OS user when we are root: it must be able to enter the dir.
    chmodSync(dir, 0o755);
    server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort(), database: 'postgres' });
    adminUrl = server.adminUrl;
  }
  const template = `story_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  try {
    await admin`create database ${admin(template)}`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  await runMigrations(databaseUrl(adminUrl, template));
  globalThis.__STORY_PG__ = { server, dir, adminUrl, template };
  // Workers are forked after this, so they inherit these.
  process.env['STORY_TEST_ADMIN_URL'] = adminUrl;
  process.env['STORY_TEST_TEMPLATE'] = template;
}
