// Spawning a program from a process with a large heap stalls its event loop while Linux copies the page
// tables (measured: ~5 ms at 46 MB RSS, 20–50 ms at 350–570 MB). So programs such as ffmpeg are spawned by a
// small long-lived helper process instead: it is started once (lazily), stays small because it runs a tiny
// plain script that imports nothing of the app, spawns the program on request over IPC, streams its stdout
// back (serialization 'advanced', so Buffers pass as they are), kills it on request or timeout and reports
// the exit code. The script is a string run with `node -e`, so it works the same from TypeScript sources
// (jest, tsx) and from the esbuild bundle. If the helper dies, calls in flight reject and the next call
// starts a new one. The helper holds the event loop open only while calls are in flight.
import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnRunOptions {
  /** Each stdout chunk as it arrives. */
  onStdout?: (chunk: Buffer) => void;
  /** The program is killed (SIGKILL) after this long; 120 s when not given. */
  timeoutMs?: number;
  /** Kills the program (SIGKILL) when aborted. */
  signal?: AbortSignal;
}

export interface SpawnRunResult {
  /** Exit code; -1 when the program ended by a signal. */
  code: number;
  signal: NodeJS.Signals | null;
}

export interface ProcessSpawner {
  /** Run `cmd args` (no shell, stdin and stderr ignored). Rejects when the program cannot start or the helper dies. */
  run(cmd: string, args: string[], options?: SpawnRunOptions): Promise<SpawnRunResult>;
  /** Process id of the helper, when one runs (for tests and diagnostics). */
  readonly pid: number | undefined;
  /** Stop the helper (and any program it runs); calls in flight reject. A later run() starts a new one. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 120_000;

// The helper. Plain CommonJS, only node: built-ins. Messages in: {t:'run',id,cmd,args,timeoutMs,env} and
// {t:'kill',id}; out: {t:'out',id,chunk}, {t:'exit',id,code,signal}, {t:'error',id,message,code}.
// stdout is paused while more than 16 chunks wait to be sent, so a slow parent does not grow the helper.
const HELPER_SOURCE = String.raw`
const { spawn } = require('node:child_process');
const kids = new Map();
const send = (m, cb) => { if (process.connected) process.send(m, cb); };
process.on('message', (m) => {
  if (m.t === 'kill') { const k = kids.get(m.id); if (k) k.kill('SIGKILL'); return; }
  if (m.t !== 'run') return;
  const id = m.id;
  let done = false;
  const end = (msg) => { if (done) return; done = true; clearTimeout(timer); kids.delete(id); send(msg); };
  let child;
  try {
    child = spawn(m.cmd, m.args, { stdio: ['ignore', 'pipe', 'ignore'], env: m.env });
  } catch (e) {
    done = true;
    send({ t: 'error', id, message: String(e && e.message || e), code: e && e.code });
    return;
  }
  kids.set(id, child);
  const timer = setTimeout(() => child.kill('SIGKILL'), m.timeoutMs);
  let pending = 0;
  child.stdout.on('data', (chunk) => {
    pending++;
    if (pending > 16) child.stdout.pause();
    send({ t: 'out', id, chunk }, () => { pending--; if (pending <= 4 && child.stdout.isPaused()) child.stdout.resume(); });
  });
  child.on('error', (e) => end({ t: 'error', id, message: String(e && e.message || e), code: e && e.code }));
  child.on('close', (code, signal) => end({ t: 'exit', id, code: code == null ? -1 : code, signal }));
});
process.on('disconnect', () => { for (const k of kids.values()) k.kill('SIGKILL'); process.exit(0); });
`;

type HelperMessage =
  | { t: 'out'; id: number; chunk: Uint8Array }
  | { t: 'exit'; id: number; code: number; signal: NodeJS.Signals | null }
  | { t: 'error'; id: number; message: string; code?: string };

interface Call {
  onStdout?: (chunk: Buffer) => void;
  resolve: (r: SpawnRunResult) => void;
  reject: (e: Error) => void;
}

interface Helper {
  child: ChildProcess;
  calls: Map<number, Call>;
  exited: Promise<void>;
}

/** A spawner with its own helper process. */
export function createProcessSpawner(): ProcessSpawner {
  let helper: Helper | null = null;
  let nextId = 1;

  // The helper keeps the parent alive only while it has work (like a directly spawned child would).
  const setRef = (h: Helper) => {
    const channel = h.child.channel as { ref?: () => void; unref?: () => void } | undefined | null;
    if (h.calls.size > 0) {
      h.child.ref();
      channel?.ref?.();
    } else {
      h.child.unref();
      channel?.unref?.();
    }
  };

  const start = (): Helper => {
    const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      // Never inherit loaders (tsx, ts-node) or heap flags of the parent: the helper is plain JS and stays small.
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const calls = new Map<number, Call>();
    let onExit!: () => void;
    const exited = new Promise<void>((r) => (onExit = r));
    const h: Helper = { child, calls, exited };
    const fail = (reason: string) => {
      if (helper === h) helper = null;
      const err = new Error(`process spawner ${reason}`);
      for (const call of calls.values()) call.reject(err);
      calls.clear();
    };
    child.on('message', (m: HelperMessage) => {
      const call = calls.get(m.id);
      if (!call) return;
      if (m.t === 'out') {
        call.onStdout?.(Buffer.isBuffer(m.chunk) ? m.chunk : Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
        return;
      }
      calls.delete(m.id);
      setRef(h);
      if (m.t === 'exit') call.resolve({ code: m.code, signal: m.signal });
      else call.reject(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
    });
    child.on('error', (e) => fail(`failed: ${e.message}`));
    child.on('exit', (code, signal) => {
      fail(`exited (${signal ?? code})`);
      onExit();
    });
    setRef(h);
    return h;
  };

  return {
    get pid() {
      return helper?.child.pid;
    },
    run(cmd, args, options = {}) {
      return new Promise<SpawnRunResult>((resolve, reject) => {
        if (options.signal?.aborted) {
          // Same as a direct spawn killed at once: it ends by SIGKILL.
          resolve({ code: -1, signal: 'SIGKILL' });
          return;
        }
        if (!helper || helper.child.exitCode !== null || helper.child.signalCode !== null || !helper.child.connected) helper = start();
        const h = helper;
        const id = nextId++;
        const abort = () => {
          if (h.child.connected) h.child.send({ t: 'kill', id });
        };
        const finish = () => options.signal?.removeEventListener('abort', abort);
        h.calls.set(id, {
          onStdout: options.onStdout,
          resolve: (r) => (finish(), resolve(r)),
          reject: (e) => (finish(), reject(e)),
        });
        setRef(h);
        options.signal?.addEventListener('abort', abort, { once: true });
        const unreachable = (err: Error) => {
          const call = h.calls.get(id);
          if (!call) return;
          h.calls.delete(id);
          setRef(h);
          call.reject(new Error(`process spawner unreachable: ${err.message}`));
        };
        try {
          // process.env itself cannot be cloned: send a plain copy.
          h.child.send({ t: 'run', id, cmd, args, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, env: { ...process.env } }, (err) => err && unreachable(err));
        } catch (err) {
          unreachable(err as Error);
        }
      });
    },
    async close() {
      const h = helper;
      helper = null;
      if (!h) return;
      if (h.child.exitCode === null && h.child.signalCode === null) {
        // Disconnecting makes the helper kill its programs and exit; SIGKILL if it does not within 2 s.
        if (h.child.connected) h.child.disconnect();
        const timer = setTimeout(() => h.child.kill('SIGKILL'), 2000);
        await h.exited;
        clearTimeout(timer);
      }
    },
  };
}

let shared: ProcessSpawner | null = null;

/** The spawner shared by the whole process (one helper). Close it with closeSharedProcessSpawner on shutdown. */
export function sharedProcessSpawner(): ProcessSpawner {
  shared ??= createProcessSpawner();
  return shared;
}

/** Stop the shared helper, if one runs; a later sharedProcessSpawner().run() starts it again. */
export async function closeSharedProcessSpawner(): Promise<void> {
  await shared?.close();
}
