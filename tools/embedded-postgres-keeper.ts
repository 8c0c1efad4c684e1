// The embedded PostgreSQL of `npm start`, in a process of its own that tools/start.ts forks (IPC): it
// starts the server, reports its URL, and stops it when told to, on SIGTERM/SIGINT, or when the supervisor
// dies (its IPC channel closes or this process is re-parented; libs/http parent-watch.ts). Without it a
// supervisor killed with SIGKILL would leave the server running and holding its port and data folder.
import { startEmbeddedPostgres, type EmbeddedServer } from '@story/db';
import { whenParentDies } from '../libs/http/src/parent-watch';

export type KeeperMessage = { type: 'ready'; url: string } | { type: 'failed'; message: string } | { type: 'stopped' };

const send = (message: KeeperMessage) => process.send?.(message);

async function main(): Promise<void> {
  const [dataDir, port] = process.argv.slice(2);
  if (!dataDir || !port) throw new Error('usage: embedded-postgres-keeper <dataDir> <port>');
  let starting: Promise<EmbeddedServer> | undefined;
  let stopping: Promise<void> | undefined;
  // A stop during the start waits for it, so the server it started is stopped too.
  const stop = () =>
    (stopping ??= (async () => {
      const server = await starting?.catch(() => undefined);
      await server?.stop().catch(() => undefined);
      send({ type: 'stopped' });
      process.exit(0);
    })());
  // Installed before the server starts: a supervisor that dies mid-start still gets the server stopped.
  whenParentDies(() => void stop(), { pollMs: 500 });
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stop') void stop();
  });
  starting = startEmbeddedPostgres({ dataDir, port: Number(port) });
  const server = await starting;
  if (!stopping) send({ type: 'ready', url: server.url });
}

main().catch((err: unknown) => {
  send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
