// Fault injection: `npm start`'s supervisor (tools/start.ts) killed with SIGKILL, which it cannot catch.
// Its three services and the embedded PostgreSQL it started (in its keeper process) must go with it: each
// watches its parent (libs/http parent-watch.ts). Real processes on non-default ports and a temp DATA_DIR;
// afterwards nothing listens on any of the four ports and no process names the data folder. A second run
// kills the tsx wrapper above the supervisor instead (what killing `npm start` from outside does).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@story/testing';

const ROOT = path.resolve(__dirname, '../../../..');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Pids of processes whose command line or environment mentions `text` (the temp data folder): the keeper
 * and PostgreSQL name it in their arguments, the services carry it as DATA_DIR.
 */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      let environ = '';
      try {
        environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      } catch {
        // not readable (another user's process): the command line decides
      }
      if (cmdline.includes(text) || environ.includes(`DATA_DIR=${text}`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return check();
}

interface Started {
  wrapper: ChildProcess;
  supervisorPid: number;
  ports: number[];
  dataDir: string;
  output: () => string;
}

/** `npm start` as npm runs it (tsx tools/start.ts), on free ports and a temp data folder, until all three are up. */
async function startAll(): Promise<Started> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-killed-'));
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { ...process.env, CORE_API_PORT: String(ports[0]), EMAIL_SERVICE_PORT: String(ports[1]), TOOLS_API_PORT: String(ports[2]), EMBEDDED_PG_PORT: String(ports[3]), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' };
  // The embedded defaults: no outside database, store, mail or Redis.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'STORAGE_DRIVER']) delete env[name];
  const wrapper = spawn(process.execPath, [require.resolve('tsx/cli'), '--tsconfig', 'tsconfig.base.json', 'tools/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  wrapper.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  wrapper.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const up = await waitFor(() => out.includes('press Ctrl-C to stop') || wrapper.exitCode !== null, 120_000);
  if (!up || !out.includes('press Ctrl-C to stop')) throw new Error(`npm start did not come up:\n${out}`);
  const supervisorPid = Number(/supervisor pid (\d+)/.exec(out)?.[1]);
  return { wrapper, supervisorPid, ports, dataDir, output: () => out };
}

async function expectAllGone(started: Started): Promise<void> {
  const quiet = await waitFor(async () => (await Promise.all(started.ports.map(listening))).every((l) => !l), 30_000);
  if (!quiet) throw new Error(`still listening after 30 s: ${(await Promise.all(started.ports.map(async (p) => ((await listening(p)) ? p : null)))).filter(Boolean).join(', ')}\n${started.output()}`);
  expect(await waitFor(() => processesNaming(started.dataDir).length === 0, 15_000)).toBe(true);
}

describe('fault: npm start killed (tools/start.ts owns its children)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('SIGKILL of the supervisor stops the three services and the embedded PostgreSQL', async () => {
    const started = await startAll();
    cleanups.push(async () => {
      for (const pid of processesNaming(started.dataDir)) process.kill(pid, 'SIGKILL');
      await rm(started.dataDir, { recursive: true, force: true });
    });
    expect(started.supervisorPid).toBeGreaterThan(0);
    expect(await Promise.all(started.ports.map(listening))).toEqual([true, true, true, true]);
    // The supervisor, its tsx wrapper, the keeper, PostgreSQL and the three services.
    expect(processesNaming(started.dataDir).length).toBeGreaterThanOrEqual(6);

    process.kill(started.supervisorPid, 'SIGKILL');
    await expectAllGone(started);
  }, 180_000);

  it('SIGKILL of the tsx process that runs the supervisor (npm start killed from outside) stops everything too', async () => {
    const started = await startAll();
    cleanups.push(async () => {
      for (const pid of processesNaming(started.dataDir)) process.kill(pid, 'SIGKILL');
      await rm(started.dataDir, { recursive: true, force: true });
    });
    expect(started.wrapper.pid).not.toBe(started.supervisorPid);
    started.wrapper.kill('SIGKILL');
    await expectAllGone(started);
  }, 180_000);
});
