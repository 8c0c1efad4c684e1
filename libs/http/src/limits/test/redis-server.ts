// A real redis-server of the test's own on a free port (the machine's shared Redis on 6379 is never
// stopped): tests stop, pause and restart it to see what the limiter does when Redis goes away.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';

export interface OwnRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: the server is gone, its connections reset. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: connections stay open and nothing answers. */
  pause(): void;
  resume(): void;
}

/** The redis-server binary: REDIS_SERVER_PATH, else redis-server on PATH (Debian's redis-server package). */
export function redisServerPath(): string {
  const fromEnv = process.env['REDIS_SERVER_PATH'];
  if (fromEnv) return fromEnv;
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('redis-server is not installed: install Debian\'s redis-server (or set REDIS_SERVER_PATH) to run the Redis outage tests');
  return found;
}

export async function freeTcpPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, up: boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open === up) return;
    if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not ${up ? 'start' : 'stop'} in time`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function ownRedis(): Promise<OwnRedis> {
  const binary = redisServerPath();
  const port = await freeTcpPort();
  let child: ChildProcess | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: 'ignore' });
      await waitForPort(port, true);
    },
    async kill() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
      await waitForPort(port, false);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}
