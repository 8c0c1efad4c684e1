// Child processes of the bench: core-api's built bundle (as it is deployed) and the baselines run
// with tsx, their output forwarded with a prefix, readiness polled over HTTP, and stopped by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { SERVICE_NODE_FLAGS } from '../../tools/bundle';

export const ROOT = path.resolve(__dirname, '..', '..');
const TSX_CLI = require.resolve('tsx/cli');
const STOP_GRACE_MS = 15_000;

export interface Service {
  name: string;
  child: ChildProcess;
  /** Every line the process wrote, for the report (the baselines should write none). */
  output: string[];
  /** Why the process ended without being asked to, if it did. */
  crash(): string | undefined;
  /** SIGTERM (tsx relays it to the real process), SIGKILL of the group after a grace period. */
  stop(): Promise<void>;
}

/** A TypeScript entry run with tsx. */
export function startTs(name: string, script: string, env: Record<string, string>): Service {
  return startNode(name, [TSX_CLI, '--tsconfig', 'tsconfig.base.json', script], env);
}

/** A built JavaScript bundle run with plain node, exactly as deployed. */
export function startBundle(name: string, bundle: string, env: Record<string, string>): Service {
  // BENCH_CPU_PROF=<dir>: each bundle process writes a V8 CPU profile there when it exits (node --cpu-prof).
  const profile = process.env['BENCH_CPU_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env['BENCH_CPU_PROF'])}`] : [];
  return startNode(name, [...SERVICE_NODE_FLAGS, ...profile, path.resolve(ROOT, bundle)], env);
}

export function startNode(name: string, args: string[], env: Record<string, string>): Service {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Own process group: Ctrl-C reaches only the bench, which then stops children in order.
    detached: true,
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  let stopping = false;
  let crashReason: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!stopping) crashReason = `${name} exited unexpectedly (${signal ?? `code ${code}`})`;
      resolve();
    });
    child.once('error', (err) => {
      crashReason = `${name} could not be started: ${err.message}`;
      resolve();
    });
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => killGroup(child), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  return { name, child, output, crash: () => crashReason, stop };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  process.stderr.write(`[bench] pid ${child.pid} did not stop within ${STOP_GRACE_MS / 1000} s: SIGKILL\n`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Status of one GET on a fresh connection (no keep-alive pool to go stale across restarts). */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** Poll until `url` answers 200; fails at once if the service dies. Short interval: start times are measured with it. */
export async function waitForOk(url: string, service: Service, timeoutMs = 60_000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    const crash = service.crash();
    if (crash) throw new Error(crash);
    try {
      const status = await httpStatus(url);
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${service.name}: ${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
