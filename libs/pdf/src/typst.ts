// The one typesetting engine of every PDF the platform makes: Typst, run by the prebuilt native compiler
// of @myriaddreamin/typst-ts-node-compiler (Typst 0.14) in a child process. A book takes a second or more
// of CPU and the compile is a synchronous native call: on the service's main thread it would stop every
// other request for that long. A child process rather than a worker thread: a 300-page book holds about
// 450 MB while it is laid out, which a child gives back to the system whole when it ends (a thread's
// native allocations stay in the service's heap), and a fault in the native compiler ends the child, not
// the service. One child serves the process; it is ended when idle and when the service dies.
//
// User text never becomes Typst markup or code: templates are fixed sources written here, and every
// string a person typed reaches them as JSON in `sys.inputs` (read with `json(bytes(sys.inputs.data))`)
// and is placed as text. The compiler's workspace is an empty folder, so no template can read files.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fontDirectories } from './fonts';

export interface TypesetResult {
  pdf: Buffer;
  pages: number;
}

/** Typst refused the source (a template bug, never user text): the diagnostics as Typst printed them. */
export class TypesetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TypesetError';
  }
}

// Runs in the child (plain JavaScript passed with -e, so the bundle needs no second entry file). Its
// settings come in the environment; it leaves when the service's IPC channel closes (the service ended).
const CHILD_SOURCE = `
const workerData = JSON.parse(process.env.TYPST_CHILD_SETTINGS);
const parentPort = { postMessage: (msg) => process.send(msg), on: (event, fn) => process.on(event, fn) };
process.on('disconnect', () => process.exit(0));
const { NodeCompiler } = require(workerData.compiler);
const compiler = NodeCompiler.create({ workspace: workerData.workspace, fontArgs: [{ fontPaths: workerData.fontDirs }] });
const describe = (err) => {
  if (!err) return 'unknown error';
  const list = err.shortDiagnostics || [];
  return list.length ? list.map((d) => d.message + (d.range ? ' at ' + d.range : '')).join('; ') : String(err.kind || err);
};
parentPort.on('message', ({ id, source, data }) => {
  try {
    const result = compiler.compile({ mainFileContent: source, inputs: { data } });
    const doc = result.result;
    if (!doc || result.hasError()) {
      parentPort.postMessage({ id, error: describe(result.takeError() || result.takeDiagnostics()) });
      return;
    }
    const pdf = compiler.pdf(doc, { creationTimestamp: 0 });
    const pages = doc.numOfPages;
    // The compiler memoises across compiles (a second gutter pass reuses the shaping of the first); entries
    // unused for three compiles go, so a child between books holds little.
    compiler.evictCache(3);
    parentPort.postMessage({ id, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), pages, peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

export interface TypesetterOptions {
  /** End the child after this long without work. */
  idleMs?: number;
  /** Give up on one document after this long (the child is ended and the next call starts a new one). */
  timeoutMs?: number;
}

export interface Typesetter {
  /** Compile a Typst source whose user data is `data` (JSON text, read by the source from sys.inputs.data). */
  typeset(source: string, data: unknown): Promise<TypesetResult>;
  /** The typesetting child's process id while one runs (for health and tests). */
  readonly pid: number | undefined;
  /** The highest peak resident memory a typesetting child reported (it holds the layout, not the service). */
  readonly peakRssBytes: number;
  close(): Promise<void>;
}

export function createTypesetter(options: TypesetterOptions = {}): Typesetter {
  const idleMs = options.idleMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  let child: ChildProcess | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 0;
  let peakRssBytes = 0;
  let workspace: string | undefined;
  const pending = new Map<number, { resolve: (r: TypesetResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  const failAll = (err: Error) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(err);
      pending.delete(id);
    }
  };

  function start(): ChildProcess {
    workspace ??= mkdtempSync(path.join(os.tmpdir(), 'typst-workspace-'));
    // A literal require.resolve: Nx lists the package in each service's generated package.json.
    const compiler = require.resolve('@myriaddreamin/typst-ts-node-compiler');
    const settings = JSON.stringify({ compiler, workspace, fontDirs: fontDirectories() });
    const w = spawn(process.execPath, ['-e', CHILD_SOURCE], {
      // 'advanced' serialization carries the PDF bytes as a Buffer, not as JSON numbers.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { PATH: process.env['PATH'] ?? '', TYPST_CHILD_SETTINGS: settings },
    });
    // Idle, the child does not keep the service from exiting.
    w.unref();
    w.channel?.unref();
    w.on('message', (msg: { id: number; pdf?: Uint8Array; pages?: number; peakRssBytes?: number; error?: string }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      peakRssBytes = Math.max(peakRssBytes, msg.peakRssBytes ?? 0);
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error !== undefined || !msg.pdf) p.reject(new TypesetError(`Typst could not typeset the document: ${msg.error ?? 'no output'}`));
      else p.resolve({ pdf: Buffer.from(msg.pdf.buffer, msg.pdf.byteOffset, msg.pdf.byteLength), pages: msg.pages ?? 0 });
      if (pending.size === 0) {
        w.channel?.unref();
        armIdle();
      }
    });
    w.on('error', (err) => {
      if (child === w) child = null;
      failAll(err instanceof Error ? err : new Error(String(err)));
    });
    w.on('exit', (code, signal) => {
      if (child === w) child = null;
      failAll(new Error(`the typesetting process stopped (${signal ?? `exit code ${code}`})`));
    });
    return w;
  }

  function armIdle() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (pending.size === 0 && child) {
        const w = child;
        child = null;
        w.kill('SIGKILL');
      }
    }, idleMs);
    idleTimer.unref();
  }

  return {
    typeset(source, data) {
      if (idleTimer) clearTimeout(idleTimer);
      const w = (child ??= start());
      // While a document is under way the channel holds the service open for its answer.
      w.channel?.ref();
      const id = ++nextId;
      return new Promise<TypesetResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // A stuck compile holds the child: end it; the next document starts a fresh one.
          if (child === w) child = null;
          w.kill('SIGKILL');
          reject(new Error(`typesetting took longer than ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        w.send({ id, source, data: JSON.stringify(data) });
      });
    },
    get pid() {
      return child?.pid;
    },
    get peakRssBytes() {
      return peakRssBytes;
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const w = child;
      child = null;
      failAll(new Error('the typesetter was closed'));
      if (w && w.exitCode === null && w.signalCode === null) {
        const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
        // Held until it has exited, so the caller's await is not cut short by an empty event loop.
        w.ref();
        w.kill('SIGKILL');
        await exited;
      }
    },
  };
}

let shared: Typesetter | undefined;

/** The process's typesetter (one child process, started on first use). */
export function typesetter(): Typesetter {
  return (shared ??= createTypesetter());
}

/** End the process's typesetting child, if one runs (a service's shutdown; a later document starts a new one). */
export async function closeTypesetter(): Promise<void> {
  await shared?.close();
}
