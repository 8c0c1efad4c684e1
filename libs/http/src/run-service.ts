// The process entry shared by the three services: config, database (migrated), app, listen,
// graceful shutdown. A config or start failure prints one line and exits 1, never a stack trace.
import { loadOrExit, type PlatformConfig } from '@story/config';
import { openDatabase, type DbClient } from '@story/db';
import { SUPERVISED_ENV, whenParentDies } from './parent-watch';
import type { App } from './server';
import { listenWithGracefulShutdown } from './shutdown';

export interface RunServiceOptions<C extends PlatformConfig & { port: number }> {
  name: string;
  loadConfig: () => C;
  buildApp: (input: { config: C; deps: { database: DbClient } }) => Promise<App>;
  /** Background loops (queue workers) started after listen and stopped on close. */
  startWorkers?: (input: { config: C; database: DbClient; app: App }) => Promise<void> | void;
}

export function runService<C extends PlatformConfig & { port: number }>(options: RunServiceOptions<C>): void {
  const start = async () => {
    const config = loadOrExit(options.loadConfig);
    const database = await openDatabase(config.database, options.name);
    const app = await options.buildApp({ config, deps: { database } });
    app.addHook('onClose', async () => database.close());
    await listenWithGracefulShutdown(app, { host: config.host, port: config.port });
    await options.startWorkers?.({ config, database, app });
  };
  // Run by `npm start`: a supervisor that dies (Ctrl-C on it, SIGTERM, SIGKILL) takes this service along,
  // shut down gracefully as on SIGTERM (close-with-grace in shutdown.ts).
  if (process.env[SUPERVISED_ENV] === '1') whenParentDies(() => process.kill(process.pid, 'SIGTERM'));
  start().catch((err: unknown) => {
    process.stderr.write(`${options.name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
