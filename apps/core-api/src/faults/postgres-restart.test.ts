// Fault injection: PostgreSQL stopped and started again (the same stop/start under a stream of writes is
// postgres-restart-load.repro.ts, which fails on a postgres.js defect; see there). The server is an
// embedded PostgreSQL started by this test on its own port (never the machine's shared one), so it can
// be stopped without touching anyone else. Properties: during the outage every request ends within a
// deadline in the core error shape (503, never a 500 or a hang); once the server is back the same app
// (no restart) serves writes again; every write acknowledged with 201 is in the database exactly once.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDbClient, runMigrations, type DbClient } from '@story/db';
import type { App } from '@story/http';
import { freePort, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { signUp, type SignedUp } from '../test/helper';
import { startPgProcess, type PgProcess } from './support/pg-process';

describe('fault: PostgreSQL stopped and started (core-api)', () => {
  let dir: string;
  let port: number;
  let server: PgProcess;
  let database: DbClient;
  let app: App;
  let user: SignedUp;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'story-faults-pg-'));
    // As root the server runs as the OS user postgres, which must be able to enter the directory.
    chmodSync(dir, 0o755);
    port = await freePort();
    server = await startPgProcess(path.join(dir, 'pg'), port);
    await runMigrations(server.url);
    database = createDbClient(server.url, { max: 4 });
    app = await buildApp({ config: loadConfig(testEnv()), deps: { database } });
    await app.ready();
    user = await signUp(app);
    // Campaigns are unlimited on the family tier, so every write below is allowed by the tiers.
    await database.sql`update profiles set subscription_tier = 'family', subscription_status = 'active' where id = ${user.userId}`;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await server?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('idle stop and start: 503 in the core shape while down, then writes again without an app restart', async () => {
    const write = (title: string) => app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title } });
    expect((await write('idle before')).statusCode).toBe(201);
    await server.stop();
    const down = await Promise.all([write('idle down 1'), write('idle down 2'), app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers })]);
    for (const res of down) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(Object.keys(res.json())).toContain('error');
      expect(res.body).not.toMatch(/ECONNREFUSED|CONNECTION_|postgres/i);
    }
    await server.start();
    // The pool reconnects by itself; allow a few tries while the server finishes starting.
    let status = 0;
    for (let i = 0; i < 20 && status !== 201; i++) {
      status = (await write('idle after')).statusCode;
      if (status !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(201);
    const rows = await database.sql`select title from campaigns where user_id = ${user.userId} and title like 'idle%' order by title`;
    expect(rows.map((r) => r['title'])).toEqual(['idle after', 'idle before']);
  }, 60_000);

});
