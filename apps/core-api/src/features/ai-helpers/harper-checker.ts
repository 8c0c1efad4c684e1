// The offline grammar checker: Harper (harper.js, Apache-2.0), a Rust grammar checker compiled to
// WebAssembly that runs with no network. harper.js is an ES module and its LocalLinter blocks the thread
// while it lints (about 200 ms per 9,000 characters here) and holds about 400 MB once loaded, so it runs
// in a worker thread: the event loop stays free, `import()` works there whatever loaded this CommonJS code
// (Jest's sandbox refuses dynamic imports), and an idle worker is ended to give the memory back.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface HarperLint {
  /** UTF-16 offsets into the text (JavaScript string indices). */
  start: number;
  end: number;
  /** Harper's lint kind: Spelling, Grammar, Agreement, Repetition, Punctuation, ... */
  kind: string;
  message: string;
  problem: string;
  suggestions: { kind: 'replace' | 'remove' | 'insert_after'; text: string }[];
}

export interface GrammarChecker {
  readonly name: string;
  check(text: string): Promise<HarperLint[]>;
  close(): Promise<void>;
}

// Runs inside the worker (plain JavaScript). harper.js already reports spans in UTF-16 units (checked by
// the emoji test), so they index JavaScript strings as they are.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const ready = (async () => {
  const { LocalLinter, Dialect } = await import(pathToFileURL(workerData.index).href);
  const { binary } = await import(pathToFileURL(workerData.binary).href);
  const linter = new LocalLinter({ binary, dialect: Dialect.American });
  await linter.setup();
  return linter;
})();
ready.catch(() => {});
const KINDS = ['replace', 'remove', 'insert_after'];
parentPort.on('message', async ({ id, text }) => {
  try {
    const linter = await ready;
    const lints = await linter.lint(text, { language: 'plaintext' });
    const out = lints.map((l) => {
      const span = l.span();
      const lint = { start: span.start, end: span.end, kind: l.lint_kind(), message: l.message(), problem: l.get_problem_text(),
        suggestions: l.suggestions().map((s) => ({ kind: KINDS[s.kind()] || 'replace', text: s.get_replacement_text() })) };
      l.free();
      return lint;
    });
    parentPort.postMessage({ id, lints: out });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/** harper.js's files, found the way Node finds a package (its `exports` map hides package.json from require.resolve). */
export function locateHarper(): { index: string; binary: string } | null {
  for (const dir of require.resolve.paths('harper.js') ?? []) {
    const root = path.join(dir, 'harper.js', 'dist');
    const index = path.join(root, 'index.js');
    const binary = path.join(root, 'binary.js');
    if (existsSync(index) && existsSync(binary)) return { index, binary };
  }
  return null;
}

export interface HarperOptions {
  /** End the worker after this long without work (its memory is returned). */
  idleMs?: number;
  /** Give up on one check after this long (the first one includes loading, about 1-2 s). */
  timeoutMs?: number;
}

export function createHarperChecker(options: HarperOptions = {}): GrammarChecker {
  const idleMs = options.idleMs ?? 5 * 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve: (l: HarperLint[]) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  const failAll = (err: Error) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(err);
      pending.delete(id);
    }
  };

  function start(): Worker {
    const files = locateHarper();
    if (!files) throw new Error('harper.js is not installed');
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: files });
    w.unref();
    w.on('message', (msg: { id: number; lints?: HarperLint[]; error?: string }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error !== undefined) p.reject(new Error(`grammar checker failed: ${msg.error}`));
      else p.resolve(msg.lints ?? []);
      if (pending.size === 0) armIdle();
    });
    w.on('error', (err) => {
      worker = null;
      failAll(err instanceof Error ? err : new Error(String(err)));
    });
    w.on('exit', () => {
      if (worker === w) worker = null;
      failAll(new Error('grammar checker stopped'));
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
    name: 'harper',
    check(text) {
      if (idleTimer) clearTimeout(idleTimer);
      const w = (worker ??= start());
      const id = ++nextId;
      return new Promise<HarperLint[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // A stuck lint holds the worker: end it, the next check starts a fresh one.
          if (worker === w) worker = null;
          void w.terminate();
          reject(new Error('grammar checker timed out'));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        w.postMessage({ id, text });
      });
    },
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      failAll(new Error('grammar checker closed'));
      if (w) await w.terminate();
    },
  };
}
