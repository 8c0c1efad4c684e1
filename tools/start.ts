// `npm start`: the main job. Bundles the three services with esbuild (tools/bundle.ts, under a second),
// starts the embedded PostgreSQL server when DATABASE_URL is unset, applies migrations, then runs each
// bundle as its own process (as deployed), waits for their /health, prints their URLs with a line per
// step and its time, and on Ctrl-C or SIGTERM stops the services first and the database last.
//
// It owns what it starts: the services and the embedded PostgreSQL (in its own keeper process,
// embedded-postgres-keeper.ts) each hold an IPC channel to this process and watch their parent pid
// (libs/http parent-watch.ts), so when this supervisor dies, even by SIGKILL, every one of them shuts
// down by itself. This process watches its own parent the same way (npm and tsx run it), so killing the
// `npm start` process tree anywhere stops everything.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadOrExit, loadPlatformConfig } from '@story/config';
import { runMigrations } from '@story/db';
import { SUPERVISED_ENV, whenParentDies } from '../libs/http/src/parent-watch';
import { bundleServices, SERVICE_NODE_FLAGS } from './bundle';
import type { KeeperMessage } from './embedded-postgres-keeper';

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

/** Fork the keeper of the embedded PostgreSQL and wait for its URL. */
function startEmbeddedKeeper(dataDir: string, port: number): Promise<{ url: string; keeper: ChildProcess }> {
  // Own process group (detached): a terminal Ctrl-C reaches only this supervisor, which stops the
  // services before the database. fork() passes tsx's loader on (process.execArgv).
  const keeper = fork(path.join(__dirname, 'embedded-postgres-keeper.ts'), [dataDir, String(port)], { detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    keeper.on('message', (message: KeeperMessage) => {
      if (message.type === 'ready') resolve({ url: message.url, keeper });
      else if (message.type === 'failed') reject(new Error(message.message));
    });
    keeper.once('exit', (code) => reject(new Error(`the embedded PostgreSQL keeper exited (code ${code})`)));
  });
}

/** Ask the keeper to stop the server and wait until it has (SIGTERM after 20 s, which it also handles). */
function stopEmbeddedKeeper(keeper: ChildProcess): Promise<void> {
  if (keeper.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    keeper.once('exit', () => resolve());
    if (keeper.connected) keeper.send({ type: 'stop' });
    else keeper.kill('SIGTERM');
    setTimeout(() => keeper.kill('SIGTERM'), 20_000).unref();
  });
}

async function main(): Promise<void> {
  const config = loadOrExit(() => loadPlatformConfig(process.env));
  say(`supervisor pid ${process.pid}`);

  const children: { name: string; child: ChildProcess }[] = [];
  let keeper: ChildProcess | undefined;
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (children.length > 0) say('stopping services');
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
    if (keeper) {
      say('stopping embedded PostgreSQL');
      await stopEmbeddedKeeper(keeper);
    }
    process.exit(code);
  };
  // Exiting any other way (a crash): the children see their IPC channel close and stop by themselves;
  // SIGTERM tells the services at once.
  process.on('exit', () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
  });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGHUP', () => void stopAll(0));
  // npm or tsx above this process gone (killed): stop everything as on Ctrl-C.
  whenParentDies(() => {
    say('the process that ran npm start is gone; stopping everything');
    void stopAll(1);
  });

  say('bundling the three services with esbuild');
  const bundles = await bundleServices(SERVICES.map((s) => s.name));
  say('bundled');
  let databaseUrl = config.database.url;
  if (!databaseUrl) {
    say(`starting embedded PostgreSQL (the first start also creates its data folder) on 127.0.0.1:${config.database.embeddedPort} (data in ${path.join(config.dataDir, 'pg')})`);
    const started = await startEmbeddedKeeper(path.join(config.dataDir, 'pg'), config.database.embeddedPort);
    keeper = started.keeper;
    databaseUrl = started.url;
    keeper.on('exit', (code) => {
      if (!stopping) {
        say(`embedded PostgreSQL stopped unexpectedly (code ${code}); stopping everything`);
        void stopAll(1);
      }
    });
  }
  if (stopping) return;
  say('applying migrations');
  await runMigrations(databaseUrl);
  if (stopping) return;
  say('database migrated; starting the services');

  for (const service of SERVICES) {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--enable-source-maps', bundles[service.name]], {
      cwd: ROOT,
      // STORY_SUPERVISED: the service stops when this supervisor dies (runService, libs/http parent-watch.ts).
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: config.dataDir, [SUPERVISED_ENV]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
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
  // A keeper already started stops its server when this process is gone (parent-watch).
  process.exit(1);
});
