// `local` speech-to-text (CONTRACTS §4): Moonshine (English), weights from npm, run by onnxruntime-node on
// this machine's CPU; nothing leaves the server and nothing is downloaded. The recording is decoded to
// 16 kHz mono with the ffmpeg the project ships, cut at pauses into pieces of at most about 20 s (Moonshine
// garbles much longer input), and each piece is recognised in an inference thread that loads the model on
// the first transcription (service start does not wait for it). Transcriptions take turns for the threads.
//
// Honest limits: English only (other languages come out as fluent, wrong English, so a recording known to
// be in another language is refused with a message naming the setting that adds a cloud provider);
// silence gives an empty transcript; times are per piece of speech, not per word; at most 30 minutes.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { ProviderError } from '../provider-error';
import { decodeAudio } from './local/decode-audio';
import { moonshineFiles, type MoonshineModel } from './local/model-files';
import { createMoonshineThread, type MoonshineThread, type RecognisedPiece } from './local/moonshine-thread';
import { cutAtPauses, SAMPLE_RATE } from './local/pauses';
import { createTurns } from './local/turns';
import type { MediaSource, SpeechToText, TranscribeOptions, Transcription, TranscriptSegment, TranscriptWord } from './speech-to-text.port';

const PROVIDER = 'local';

/** Spec 000 Limits: a voice recording is at most 30 minutes. */
export const LOCAL_STT_MAX_SECONDS = 30 * 60;

export interface LocalSpeechConfig {
  /** base (default; better) or tiny (faster and smaller, for small machines). */
  model: MoonshineModel;
  /**
   * onnxruntime threads per transcription (default 1). Measured on 2 cores (bench/local-stt.ts): a second
   * thread cost more CPU per audio second than it saved in wall time, and left the API no core of its own.
   */
  threads?: number;
  /** Transcriptions that run side by side, each with its own thread and copy of the model (default 1). */
  concurrency?: number;
  maxSeconds?: number;
}

export interface LocalSpeechToText extends SpeechToText {
  readonly provider: 'local';
  /** moonshine-base or moonshine-tiny: what transcript_model records. */
  readonly model: string;
  /** Whether the model has been loaded (it loads on the first transcription). */
  readonly loaded: boolean;
  /** Milliseconds the model took to load, once it has. */
  readonly loadMs: number | undefined;
  /** End the inference threads (a later transcription starts them again). */
  close(): Promise<void>;
}

/** The setting an operator changes to transcribe other languages (named in the refusal). */
export const CLOUD_STT_SETTING = 'STT_PRIMARY=google (or STT_FALLBACK=deepgram)';

const isEnglish = (code: string) => /^en(g)?([-_]|$)/i.test(code.trim());
const isKnown = (code: string | undefined): code is string => !!code && code.trim() !== '' && code.trim().toLowerCase() !== 'auto';

/** The refusal of a recording known not to be English (its message names the language and the setting). */
export class EnglishOnlyError extends ProviderError {
  /** Where the language came from: the request's own field, or the speaker's voice settings. */
  readonly languageFrom: 'request' | 'settings';
  constructor(message: string, languageFrom: 'request' | 'settings') {
    super('rejected_input', PROVIDER, message);
    this.languageFrom = languageFrom;
  }
}

/** Refuse a recording known not to be English before any work (CONTRACTS §4). */
export function assertEnglish(options: Pick<TranscribeOptions, 'language' | 'preferredLanguage'>): void {
  const fromRequest = isKnown(options.language);
  const code = fromRequest ? options.language : isKnown(options.preferredLanguage) ? options.preferredLanguage : undefined;
  if (code && !isEnglish(code)) {
    const where = fromRequest ? 'the request says its language is' : "the speaker's voice settings give the language";
    throw new EnglishOnlyError(
      `The local speech recogniser understands English only, and ${where} "${code.trim()}". An operator can add a cloud speech provider that understands it with ${CLOUD_STT_SETTING}.`,
      fromRequest ? 'request' : 'settings',
    );
  }
}

const cancelled = () => new ProviderError('failed', PROVIDER, 'local transcription was cancelled');
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The media as a file on disk (ffmpeg seeks in MP4/M4A): its own path, or a private temp copy. */
async function onDisk(media: MediaSource): Promise<{ file: string; cleanup: () => Promise<void> }> {
  if (media.path) return { file: media.path, cleanup: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), 'local-stt-'));
  const file = path.join(dir, randomUUID());
  try {
    await pipeline(media.open(), createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function createLocalSpeechToText(config: LocalSpeechConfig): LocalSpeechToText {
  const threads = Math.max(1, Math.floor(config.threads ?? 1));
  // Never more transcriptions side by side than the machine has cores: more would only wait for each other.
  const concurrency = Math.max(1, Math.min(availableParallelism(), Math.floor(config.concurrency ?? 1)));
  const maxSeconds = config.maxSeconds ?? LOCAL_STT_MAX_SECONDS;
  const modelName = `moonshine-${config.model}`;
  const turns = createTurns(concurrency, cancelled);
  const pool: (MoonshineThread | undefined)[] = [];

  function thread(slot: number): MoonshineThread {
    let t = pool[slot];
    if (!t) {
      let files;
      try {
        files = moonshineFiles(config.model);
      } catch (err) {
        throw new ProviderError('unavailable', PROVIDER, (err as Error).message, { cause: err });
      }
      t = pool[slot] = createMoonshineThread({ files, threads });
    }
    return t;
  }

  async function recognise(slot: number, samples: Float32Array, options: TranscribeOptions): Promise<(TranscriptSegment & { confidence: number })[]> {
    const bounds = cutAtPauses(samples);
    const totalSeconds = samples.length / SAMPLE_RATE;
    const heard: (TranscriptSegment & { confidence: number })[] = [];
    if (bounds.length === 0) return heard;
    let progress = Promise.resolve();
    let progressError: unknown;
    try {
      await thread(slot).recognise(
        samples,
        bounds,
        (piece: RecognisedPiece) => {
          const at = bounds[piece.index] ?? { start: 0, end: 0 };
          heard.push({ start: round2(at.start / SAMPLE_RATE), end: round2(at.end / SAMPLE_RATE), text: piece.text, confidence: piece.confidence });
          const doneSeconds = round2(at.end / SAMPLE_RATE);
          // Progress (a job's lease heartbeat) runs in order; its first failure is kept and thrown below
          // (never left as an unhandled rejection while the thread works on).
          if (options.onProgress) {
            progress = progress
              .then(() => options.onProgress?.({ doneSeconds, totalSeconds: round2(totalSeconds) }))
              .catch((err: unknown) => void (progressError ??= err));
          }
        },
        options.signal,
      );
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      if (options.signal?.aborted) throw cancelled();
      // The thread stopped (service shutting down) or failed: worth another attempt later.
      throw new ProviderError('unavailable', PROVIDER, 'The local speech recogniser stopped before finishing this recording', { cause: err });
    }
    await progress;
    if (progressError !== undefined) throw progressError;
    if (options.signal?.aborted) throw cancelled();
    return heard;
  }

  return {
    provider: PROVIDER,
    model: modelName,
    maxBytes: Number.MAX_SAFE_INTEGER,
    get loaded() {
      return pool.some((t) => t?.loadMs !== undefined);
    },
    get loadMs() {
      return pool.find((t) => t?.loadMs !== undefined)?.loadMs;
    },
    async transcribe(media, options) {
      assertEnglish(options);
      if (media.size === 0) throw new ProviderError('rejected_input', PROVIDER, 'The local speech recogniser could not read this media: the file is empty');
      return turns.run(async (slot) => {
        const { file, cleanup } = await onDisk(media);
        let decoded;
        try {
          decoded = await decodeAudio(file, { maxSeconds, signal: options.signal });
        } finally {
          await cleanup();
        }
        const heard = await recognise(slot, decoded.samples, options);
        const segments: TranscriptSegment[] = heard.map(({ start, end, text }) => ({ start, end, text }));
        const words: TranscriptWord[] = heard.flatMap((piece) =>
          piece.text
            .split(/\s+/)
            .filter(Boolean)
            .map((word) => ({ word, start: piece.start, end: piece.end, confidence: round2(piece.confidence) })),
        );
        // The pieces' confidences, weighted by their length.
        const spoken = heard.reduce((sum, p) => sum + (p.end - p.start), 0);
        const confidence = spoken > 0 ? heard.reduce((sum, p) => sum + p.confidence * (p.end - p.start), 0) / spoken : 0;
        const result: Transcription = {
          text: segments
            .map((s) => s.text)
            .filter(Boolean)
            .join(' '),
          language: 'en',
          confidence: round2(confidence),
          durationSeconds: round2(decoded.seconds),
          provider: PROVIDER,
          model: modelName,
          costUsd: 0,
          words,
          segments,
        };
        return result;
      }, options.signal);
    },
    async close() {
      const threads = pool.splice(0);
      await Promise.all(threads.map((t) => t?.close()));
    },
  };
}
