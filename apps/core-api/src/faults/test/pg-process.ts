// Test side of pg-server.ts: start an embedded PostgreSQL in a child process and stop/start it at will.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface PgProcess {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stop the server and end the child process. */
  close(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../../../../..');

export async function startPgProcess(dataDir: string, port: number): Promise<PgProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'pg-server.ts'), dataDir, String(port)],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.base.json') } },
  );
  const waiting: ((event: Record<string, unknown>) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    waiting.shift()?.(event);
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const next = (expected: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`embedded PostgreSQL: no ${expected} in 30 s ${stderr.slice(-500)}`)), 30_000);
      waiting.push((event) => {
        clearTimeout(timer);
        if (event['event'] === expected) resolve(event);
        else reject(new Error(`embedded PostgreSQL: ${JSON.stringify(event)}`));
      });
    });
  const ready = await next('ready');
  return {
    url: String(ready['url']),
    async stop() {
      const done = next('stopped');
      child.stdin.write('stop\n');
      await done;
    },
    async start() {
      const done = next('ready');
      child.stdin.write('start\n');
      await done;
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await exited;
    },
  };
}
