// The one typesetting engine of every PDF the platform makes: Typst, run by the prebuilt native compiler
// of @myriaddreamin/typst-ts-node-compiler (Typst 0.14) inside a worker thread. A book takes a second or
// more of CPU and the compile is a synchronous native call: on the main thread it would stop every other
// request of the service for that long. One worker serves the process; it is ended when idle, which
// gives Typst's font and layout caches back.
//
// User text never becomes Typst markup or code: templates are fixed sources written here, and every
// string a person typed reaches them as JSON in `sys.inputs` (read with `json(bytes(sys.inputs.data))`)
// and is placed as text. The compiler's workspace is an empty folder, so no template can read files.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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

// Runs inside the worker (plain JavaScript, loaded with eval so the bundle needs no second entry file).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
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
    // unused for three compiles go, so a worker between books holds little.
    compiler.evictCache(3);
    const copy = new Uint8Array(pdf.length);
    copy.set(pdf);
    parentPort.postMessage({ id, pdf: copy, pages }, [copy.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

export interface TypesetterOptions {
  /** End the worker after this long without work. */
  idleMs?: number;
  /** Give up on one document after this long (the worker is ended and the next call starts a new one). */
  timeoutMs?: number;
}

export interface Typesetter {
  /** Compile a Typst source whose user data is `data` (JSON text, read by the source from sys.inputs.data). */
  typeset(source: string, data: unknown): Promise<TypesetResult>;
  close(): Promise<void>;
}

export function createTypesetter(options: TypesetterOptions = {}): Typesetter {
  const idleMs = options.idleMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 0;
  let workspace: string | undefined;
  const pending = new Map<number, { resolve: (r: TypesetResult) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  const failAll = (err: Error) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(err);
      pending.delete(id);
    }
  };

  function start(): Worker {
    workspace ??= mkdtempSync(path.join(os.tmpdir(), 'typst-workspace-'));
    // A literal require.resolve: Nx lists the package in each service's generated package.json.
    const compiler = require.resolve('@myriaddreamin/typst-ts-node-compiler');
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { compiler, workspace, fontDirs: fontDirectories() } });
    w.unref();
    w.on('message', (msg: { id: number; pdf?: Uint8Array; pages?: number; error?: string }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error !== undefined || !msg.pdf) p.reject(new TypesetError(`Typst could not typeset the document: ${msg.error ?? 'no output'}`));
      else p.resolve({ pdf: Buffer.from(msg.pdf.buffer, msg.pdf.byteOffset, msg.pdf.byteLength), pages: msg.pages ?? 0 });
      if (pending.size === 0) armIdle();
    });
    w.on('error', (err) => {
      if (worker === w) worker = null;
      failAll(err instanceof Error ? err : new Error(String(err)));
    });
    w.on('exit', () => {
      if (worker === w) worker = null;
      failAll(new Error('the typesetting worker stopped'));
    });
    return w;
  }

  function armIdle() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (pending.size === 0 && worker) {
        const w = worker;
        worker = null;
        void w.terminate();
      }
    }, idleMs);
    idleTimer.unref();
  }

  return {
    typeset(source, data) {
      if (idleTimer) clearTimeout(idleTimer);
      const w = (worker ??= start());
      const id = ++nextId;
      return new Promise<TypesetResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // A stuck compile holds the worker: end it; the next document starts a fresh one.
          if (worker === w) worker = null;
          void w.terminate();
          reject(new Error(`typesetting took longer than ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        w.postMessage({ id, source, data: JSON.stringify(data) });
      });
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      failAll(new Error('the typesetter was closed'));
      if (w) await w.terminate();
    },
  };
}

let shared: Typesetter | undefined;

/** The process's typesetter (one worker, started on first use). */
export function typesetter(): Typesetter {
  return (shared ??= createTypesetter());
}

/** End the process's typesetting worker, if one runs (a service's shutdown; a later document starts a new one). */
export async function closeTypesetter(): Promise<void> {
  await shared?.close();
}
