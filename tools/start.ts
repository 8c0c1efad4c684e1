// `npm start`: the main job. Bundles the three services with esbuild (tools/bundle.ts, under a second),
// starts the embedded PostgreSQL server when DATABASE_URL is unset, applies migrations, then runs each
// bundle as its own process (as deployed), waits for their /health, prints their URLs with a line per
// step and its time, and on Ctrl-C stops the services first and the database last.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadOrExit, loadPlatformConfig } from '@story/config';
import { runMigrations, startEmbeddedPostgres, type EmbeddedServer } from '@story/db';
import { bundleServices, SERVICE_NODE_FLAGS } from './bundle';

const ROOT = path.resolve(__dirname, '..');
const SERVICES = [
  { name: 'core-api', portKey: 'coreApi' },
  { name: 'email-service', portKey: 'emailService' },
  { name: 'tools-api', portKey: 'toolsApi' },
] as const;

const startedAt = Date.now();
const say = (line: string) => process.stdout.write(`[start ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer from ${url}/health within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const config = loadOrExit(() => loadPlatformConfig(process.env));
  say('bundling the three services with esbuild');
  const bundles = await bundleServices(SERVICES.map((s) => s.name));
  say('bundled');
  let embedded: EmbeddedServer | undefined;
  let databaseUrl = config.database.url;
  if (!databaseUrl) {
    say(`starting embedded PostgreSQL (the first start also creates its data folder) on 127.0.0.1:${config.database.embeddedPort} (data in ${path.join(config.dataDir, 'pg')})`);
    embedded = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'pg'), port: config.database.embeddedPort });
    databaseUrl = embedded.url;
  }
  say('applying migrations');
  await runMigrations(databaseUrl);
  say('database migrated; starting the services');

  const children: { name: string; child: ChildProcess }[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('stopping services');
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
          }),
      ),
    );
    if (embedded) {
      say('stopping embedded PostgreSQL');
      await embedded.stop();
    }
    process.exit(code);
  };
  process.on('exit', () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  for (const service of SERVICES) {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--enable-source-maps', bundles[service.name]], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: config.dataDir },
      stdio: 'inherit',
      // Own process group: a terminal Ctrl-C reaches only this supervisor, which then stops each
      // service once (a second signal would make a service skip its graceful close).
      detached: true,
    });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        say(`${service.name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
        void stopAll(1);
      }
    });
    children.push({ name: service.name, child });
  }

  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const urls = SERVICES.map((s) => ({ name: s.name, url: `http://${host}:${config.ports[s.portKey]}` }));
  try {
    await Promise.all(urls.map(({ url }, i) => waitForHealth(url, children[i]!.child)));
  } catch (err) {
    say(`a service did not become healthy: ${(err as Error).message}`);
    await stopAll(1);
    return;
  }
  say('all services are up:');
  for (const { name, url } of urls) say(`  ${name.padEnd(14)} ${url}  (docs: ${url}/docs)`);
  say('press Ctrl-C to stop');
}

main().catch((err: unknown) => {
  process.stderr.write(`[start] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
