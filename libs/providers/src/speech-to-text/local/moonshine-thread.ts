// Moonshine inference in a worker thread. onnxruntime-node runs the encoder and each decoder step on the
// calling thread's turn, so on the API's own thread a minute of speech would stall every request for
// seconds (bench/local-stt.ts measures the event-loop delay both ways). The thread loads the model once,
// on its first job, and keeps it; the caller sends 16 kHz mono samples and the cut points, and hears back
// one message per piece. The thread's code is a string run with `eval: true`, so it is the same from the
// TypeScript sources (jest, tsx) and from the esbuild bundle, and it loads llama-tokenizer-js (an ES
// module) with import() outside any CommonJS transform.
//
// Decoding follows moonshine-js 0.1.16 (its generate()): start token 1, end token 2, greedy argmax, the
// merged decoder's cache switched on from the second step, the encoder's key/values kept from the first,
// at most 6 tokens per second of audio. Token ids past the tokenizer's 32000 entries are special and dropped.
import { Worker } from 'node:worker_threads';

import type { MoonshineFiles } from './model-files';

/** Cut points of one piece, in samples from the start of the audio. */
export interface PieceBounds {
  start: number;
  end: number;
}

export interface RecognisedPiece {
  index: number;
  text: string;
  /** Mean probability of the chosen tokens (0..1). */
  confidence: number;
  /** True when the piece used its whole token budget without an end token (a sign of garbled input). */
  truncated: boolean;
}

const THREAD_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const { files, threads } = workerData;
const START = 1, END = 2, SAMPLE_RATE = 16000, TOKENS_PER_SECOND = 6;
let model;
const cancelled = new Set();

async function load() {
  const started = Date.now();
  const ort = require(files.onnxruntime);
  // Idle pool threads sleep instead of spinning: spinning doubled the CPU per audio second for no gain here.
  const noSpin = { allow_spinning: '0' };
  const options = { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all', executionMode: 'sequential', extra: { session: { intra_op: noSpin, inter_op: noSpin } } };
  const encoder = await ort.InferenceSession.create(files.encoder, options);
  const decoder = await ort.InferenceSession.create(files.decoder, options);
  const tokenizer = (await import(pathToFileURL(files.tokenizer).href)).default;
  const meta = decoder.inputMetadata.find((m) => m.name === 'past_key_values.0.decoder.key');
  const layers = decoder.inputNames.filter((n) => /^past_key_values\.\d+\.decoder\.key$/.test(n)).length;
  model = { ort, encoder, decoder, tokenizer, heads: meta.shape[1], headDim: meta.shape[3], layers, vocab: tokenizer.vocabById.length };
  parentPort.postMessage({ t: 'loaded', ms: Date.now() - started });
}

async function recognise(samples) {
  const { ort, encoder, decoder, heads, headDim, layers, vocab } = model;
  const encoded = await encoder.run({ input_values: new ort.Tensor('float32', samples, [1, samples.length]) });
  const hidden = encoded.last_hidden_state;
  const past = {};
  for (let l = 0; l < layers; l++)
    for (const part of ['decoder', 'encoder'])
      for (const kv of ['key', 'value']) past['past_key_values.' + l + '.' + part + '.' + kv] = new ort.Tensor('float32', new Float32Array(0), [0, heads, 1, headDim]);
  const budget = Math.max(4, Math.trunc((samples.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
  const tokens = [];
  let probability = 0, steps = 0, next = START, ended = false;
  for (let step = 0; step < budget; step++) {
    const out = await decoder.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.from([BigInt(next)]), [1, 1]),
      encoder_hidden_states: hidden,
      use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
      ...past,
    });
    const logits = out.logits.data;
    const size = out.logits.dims[2];
    const offset = logits.length - size;
    let best = 0, max = -Infinity;
    for (let v = 0; v < size; v++) if (logits[offset + v] > max) { max = logits[offset + v]; best = v; }
    let sum = 0;
    for (let v = 0; v < size; v++) sum += Math.exp(logits[offset + v] - max);
    probability += 1 / sum;
    steps++;
    if (best === END) { ended = true; break; }
    if (best < vocab && best > END) tokens.push(best);
    next = best;
    for (const name of Object.keys(past)) if (step === 0 || name.includes('.decoder.')) past[name] = out[name.replace('past_key_values', 'present')];
  }
  const text = tokens.length ? model.tokenizer.decode(tokens, false, true).trim() : '';
  return { text, confidence: steps ? probability / steps : 0, truncated: !ended };
}

async function run(message) {
  const { id, samples, pieces } = message;
  try {
    if (!model) await load();
    for (let index = 0; index < pieces.length; index++) {
      await new Promise((resolve) => setImmediate(resolve));
      if (cancelled.has(id)) break;
      const piece = pieces[index];
      const result = await recognise(samples.subarray(piece.start, piece.end));
      parentPort.postMessage({ t: 'piece', id, index, ...result });
    }
    // A cancelled run is never reported done: its transcript would be missing pieces.
    parentPort.postMessage(cancelled.has(id) ? { t: 'error', id, message: 'cancelled' } : { t: 'done', id });
  } catch (err) {
    parentPort.postMessage({ t: 'error', id, message: String((err && err.message) || err) });
  } finally {
    cancelled.delete(id);
  }
}

let queue = Promise.resolve();
parentPort.on('message', (message) => {
  if (message.t === 'cancel') cancelled.add(message.id);
  else if (message.t === 'run') queue = queue.then(() => run(message));
});
`;

type FromThread =
  | { t: 'loaded'; ms: number }
  | ({ t: 'piece'; id: number } & RecognisedPiece)
  | { t: 'done'; id: number }
  | { t: 'error'; id: number; message: string };

interface Job {
  onPiece: (piece: RecognisedPiece) => void;
  resolve: () => void;
  reject: (err: Error) => void;
  /** Settles with the call, either way. */
  settled: Promise<unknown>;
}

export interface MoonshineThread {
  /** Recognise each piece of `samples` in order (the samples are handed over: the array is empty afterwards); `onPiece` hears each as it is done. */
  recognise(samples: Float32Array, pieces: PieceBounds[], onPiece: (piece: RecognisedPiece) => void, signal?: AbortSignal): Promise<void>;
  /** Milliseconds the model took to load, once it has. */
  readonly loadMs: number | undefined;
  /** End the thread once calls in flight have stopped (they reject); a later recognise() starts a new one. */
  close(): Promise<void>;
}

/**
 * One inference thread, started on the first call. It holds the event loop open only while work is in
 * flight; if it dies, the calls in flight reject and the next call starts a new one.
 */
export function createMoonshineThread(options: { files: MoonshineFiles; threads: number }): MoonshineThread {
  // Each thread keeps its own calls: a thread that ends fails only what it was running, never the calls a
  // newer thread has taken on since.
  interface Running {
    worker: Worker;
    jobs: Map<number, Job>;
  }
  let current: Running | undefined;
  let loadMs: number | undefined;
  let nextId = 1;

  function start(): Running {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { files: options.files, threads: options.threads } });
    const running: Running = { worker, jobs: new Map() };
    const { jobs } = running;
    worker.unref();
    worker.on('message', (message: FromThread) => {
      if (message.t === 'loaded') {
        loadMs = message.ms;
        return;
      }
      const job = jobs.get(message.id);
      if (job) {
        if (message.t === 'piece') job.onPiece({ index: message.index, text: message.text, confidence: message.confidence, truncated: message.truncated });
        else {
          jobs.delete(message.id);
          if (message.t === 'done') job.resolve();
          else job.reject(new Error(message.message));
        }
      }
      if (jobs.size === 0) worker.unref();
    });
    const fail = (err: Error) => {
      if (current === running) current = undefined;
      for (const job of jobs.values()) job.reject(err);
      jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the speech recognition thread stopped (exit code ${code})`)));
    return running;
  }

  return {
    get loadMs() {
      return loadMs;
    },
    recognise(samples, pieces, onPiece, signal) {
      const { worker, jobs } = (current ??= start());
      const id = nextId++;
      let settledResolve!: () => void;
      const settled = new Promise<void>((resolve) => (settledResolve = resolve));
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => worker.postMessage({ t: 'cancel', id });
        signal?.addEventListener('abort', onAbort, { once: true });
        const settle = () => {
          signal?.removeEventListener('abort', onAbort);
          settledResolve();
        };
        jobs.set(id, {
          onPiece,
          resolve: () => (settle(), resolve()),
          reject: (err) => (settle(), reject(err)),
          settled,
        });
        worker.ref();
        // The samples move to the thread (no copy of up to 115 MB on this thread): the caller's array is emptied.
        worker.postMessage({ t: 'run', id, samples, pieces }, [samples.buffer as ArrayBuffer]);
      });
    },
    async close() {
      const running = current;
      current = undefined;
      if (!running) return;
      // Calls in flight are cancelled and end after their current piece: terminating the thread inside an
      // onnxruntime call aborts the whole process (measured: "terminate called after throwing Napi::Error").
      const inFlight = [...running.jobs.entries()];
      for (const [id] of inFlight) running.worker.postMessage({ t: 'cancel', id });
      await Promise.all(inFlight.map(([, job]) => job.settled));
      await running.worker.terminate();
    },
  };
}
