// The offline text-to-speech default: espeak-ng writes WAV to its stdout, ffmpeg encodes it to MP3, and
// ffmpeg's stdout is handed to the caller as it is produced (nothing buffers the whole file). The text
// goes through espeak-ng's stdin and every process is spawned without a shell. With no espeak-ng on the
// machine, the WebAssembly build from npm runs in a child Node process instead (espeak-wasm.ts), and
// ffmpeg is the one shipped in npm (media-binaries.ts): `npm install` is all local speech needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';

import { espeakBinary, ffmpegPath as npmFfmpegPath, type EspeakBinary } from '../media-binaries';
import { ProviderError } from '../provider-error';
import { espeakWasmCommand } from './espeak-wasm';
import { checkSynthesisText, type Synthesis, type SynthesisOptions, type TextToSpeech, type Voice } from './text-to-speech.port';

const PROVIDER = 'local';

export interface LocalTextToSpeechOptions {
  /** Path or name of an espeak-ng binary (default: ESPEAK_NG_PATH, espeak-ng on PATH, else the WebAssembly build). */
  espeakPath?: string;
  /** Force the WebAssembly build of eSpeak NG (the path of the espeak-ng package's module) even when a binary exists. */
  espeakWasm?: string;
  /** Path or name of the ffmpeg binary (default: FFMPEG_PATH, else the one inside @ffmpeg-installer/ffmpeg). */
  ffmpegPath?: string;
  /** Speaking rate in words per minute. */
  wordsPerMinute?: number;
  /** How long to wait for the first MP3 bytes before giving up. */
  timeoutMs?: number;
  defaultVoiceId?: string;
}

export const LOCAL_DEFAULT_VOICE_ID = 'en-us';

// English voices listed first, with the female variants espeak-ng builds from the same language data
// (`+f3`); the rest of `espeak-ng --voices` follows.
const CURATED_VOICES: Voice[] = [
  { voice_id: 'en-us', name: 'English (America)', category: 'local', gender: 'male', accent: 'american', preview_url: null },
  { voice_id: 'en-us+f3', name: 'English (America), female', category: 'local', gender: 'female', accent: 'american', preview_url: null },
  { voice_id: 'en-gb', name: 'English (Great Britain)', category: 'local', gender: 'male', accent: 'british', preview_url: null },
  { voice_id: 'en-gb+f3', name: 'English (Great Britain), female', category: 'local', gender: 'female', accent: 'british', preview_url: null },
  { voice_id: 'en-gb-scotland', name: 'English (Scotland)', category: 'local', gender: 'male', accent: 'scottish', preview_url: null },
  { voice_id: 'en-gb-x-rp', name: 'English (Received Pronunciation)', category: 'local', gender: 'male', accent: 'british', preview_url: null },
  { voice_id: 'en-029', name: 'English (Caribbean)', category: 'local', gender: 'male', accent: 'caribbean', preview_url: null },
];

const STDERR_LIMIT = 4096;

/** Parse `espeak-ng --voices`: Pty, Language, Age/Gender, VoiceName, File, Other Languages. */
export function parseEspeakVoices(output: string): Voice[] {
  const voices: Voice[] = [];
  const seen = new Set<string>();
  for (const line of output.split('\n').slice(1)) {
    const match = /^\s*\d+\s+(\S+)\s+\S*\/([MF-]?)\s+(\S+)\s+(\S+)/.exec(line);
    if (!match) continue;
    const [, language, gender, voiceName, file] = match;
    // mbrola voices need the separate mbrola synthesizer, and variants are not languages of their own.
    if (file.startsWith('mb/') || language === 'variant' || seen.has(language)) continue;
    seen.add(language);
    const name = voiceName.replace(/_/g, ' ');
    voices.push({
      voice_id: language,
      name,
      category: 'local',
      gender: gender === 'M' ? 'male' : gender === 'F' ? 'female' : null,
      accent: /\(([^)]+)\)/.exec(name)?.[1] ?? null,
      preview_url: null,
    });
  }
  return voices;
}

/** Run a command to completion, collecting (bounded) stdout; never rejects for a missing binary. */
function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout });
    };
    let child: ChildProcess;
    try {
      child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      finish(null);
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(null);
    }, timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < 1_000_000) stdout += chunk;
    });
    child.on('error', () => finish(null));
    child.on('close', (code) => finish(code));
  });
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** A command line for eSpeak NG: the binary with `args`, or the WebAssembly runner doing the same. */
type EspeakCommand = (mode: 'run' | 'say', args: string[]) => [string, string[]];

function espeakCommandFor(binary: EspeakBinary): EspeakCommand {
  if ('wasm' in binary) return (mode, args) => espeakWasmCommand(binary.wasm, mode, args);
  return (mode, args) => [binary.path, mode === 'say' ? ['--stdin', '--stdout', ...args] : args];
}

/** Resolve a default binary without throwing: an unresolvable one becomes a path that fails to spawn (unavailable). */
function orMissing(resolve: () => string): string {
  try {
    return resolve();
  } catch {
    return '/nonexistent/ffmpeg';
  }
}

export function createLocalTextToSpeech(options: LocalTextToSpeechOptions = {}): TextToSpeech {
  const espeakSource: EspeakBinary = options.espeakWasm
    ? { wasm: options.espeakWasm, source: 'npm' }
    : options.espeakPath
      ? { path: options.espeakPath, source: 'env' }
      : espeakBinary();
  const espeak = espeakCommandFor(espeakSource);
  const ffmpeg = options.ffmpegPath ?? orMissing(() => npmFfmpegPath());
  const wordsPerMinute = Math.round(options.wordsPerMinute ?? 165);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const defaultVoiceId = options.defaultVoiceId ?? LOCAL_DEFAULT_VOICE_ID;
  // Version checks and the voice list get their own, longer bound: the WebAssembly build needs a few
  // hundred milliseconds to start, which must not count against a short first-audio timeout.
  const checkTimeoutMs = Math.max(timeoutMs, 15_000);

  let availability: Promise<boolean> | undefined;
  let voices: Promise<Voice[]> | undefined;

  const available = () => {
    availability ??= Promise.all([run(...espeak('run', ['--version']), checkTimeoutMs), run(ffmpeg, ['-version'], checkTimeoutMs)]).then(
      ([e, f]) => e.code === 0 && f.code === 0,
    );
    return availability;
  };

  const requireAvailable = async () => {
    if (!(await available())) throw new ProviderError('unavailable', PROVIDER, 'espeak-ng/ffmpeg not installed');
  };

  const listVoices = async (): Promise<Voice[]> => {
    await requireAvailable();
    voices ??= run(...espeak('run', ['--voices']), checkTimeoutMs).then(({ code, stdout }) => {
      if (code !== 0) throw new ProviderError('failed', PROVIDER, 'espeak-ng could not list its voices');
      const installed = parseEspeakVoices(stdout);
      const languages = new Set(installed.map((v) => v.voice_id));
      // A curated voice is offered only when its base language is installed.
      const curated = CURATED_VOICES.filter((v) => languages.has(v.voice_id.split('+')[0]));
      const curatedIds = new Set(curated.map((v) => v.voice_id));
      return [...curated, ...installed.filter((v) => !curatedIds.has(v.voice_id))];
    });
    // A failed listing is not cached, so a transient failure is retried on the next call.
    voices.catch(() => (voices = undefined));
    return voices;
  };

  return {
    provider: PROVIDER,
    available,
    listVoices,

    async synthesize(text: string, opts: SynthesisOptions = {}): Promise<Synthesis> {
      const characters = checkSynthesisText(PROVIDER, text);
      if (opts.outputFormat !== undefined && !opts.outputFormat.startsWith('mp3')) {
        throw new ProviderError('rejected_input', PROVIDER, 'the local synthesizer produces MP3 only');
      }
      await requireAvailable();
      const voiceId = opts.voiceId ?? defaultVoiceId;
      // Checking against the list also keeps anything that looks like an option out of espeak-ng's argv.
      if (!(await listVoices()).some((v) => v.voice_id === voiceId)) {
        throw new ProviderError('not_found', PROVIDER, `the local synthesizer has no voice "${voiceId}"`);
      }
      if (opts.signal?.aborted) throw new ProviderError('failed', PROVIDER, 'speech synthesis was cancelled');

      const audio = startPipeline(espeak, ffmpeg, voiceId, wordsPerMinute, text, opts.signal);
      await firstBytes(audio, timeoutMs);
      return { audio, contentType: 'audio/mpeg', voiceId, characters, estimatedCostUsd: 0, provider: PROVIDER };
    },
  };
}

/** Spawn espeak-ng | ffmpeg and return ffmpeg's MP3 output; a failure of either process destroys it. */
function startPipeline(espeak: EspeakCommand, ffmpeg: string, voiceId: string, wordsPerMinute: number, text: string, signal?: AbortSignal): PassThrough {
  const out = new PassThrough();
  const stderr = { espeak: '', ffmpeg: '' };
  const exits = new Map<string, number | null>();
  let failed = false;

  const fail = (message: string, cause?: unknown) => {
    if (failed) return;
    failed = true;
    killAll();
    out.destroy(new ProviderError('failed', PROVIDER, message, { cause }));
  };

  const [speakCommand, speakArgs] = espeak('say', ['-v', voiceId, '-s', String(wordsPerMinute)]);
  const speaker = spawn(speakCommand, speakArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
  const encoder = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-codec:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', 'pipe:1'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const children = { 'espeak-ng': speaker, ffmpeg: encoder };
  function killAll() {
    for (const child of Object.values(children)) if (isRunning(child)) child.kill('SIGKILL');
  }

  for (const [name, child] of Object.entries(children)) {
    child.on('error', (err) => fail(`${name} could not be started`, err));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      const key = name === 'ffmpeg' ? 'ffmpeg' : 'espeak';
      if (stderr[key].length < STDERR_LIMIT) stderr[key] += chunk;
    });
    child.on('close', (code, sig) => {
      exits.set(name, code);
      if (failed) return;
      if (code !== 0) {
        const detail = name === 'ffmpeg' ? stderr.ffmpeg : stderr.espeak;
        fail(`${name} stopped with ${code === null ? `signal ${sig}` : `exit code ${code}`}`, new Error(detail.trim() || 'no diagnostics'));
        return;
      }
      // Both exited cleanly, and 'close' comes after their stdio closed: every MP3 byte is in `out`.
      if (exits.size === 2) out.end();
    });
  }

  // A closed pipe surfaces as the process's exit status; these errors only repeat it.
  speaker.stdin.on('error', () => undefined);
  encoder.stdin.on('error', () => undefined);
  speaker.stdout.pipe(encoder.stdin);
  encoder.stdout.pipe(out, { end: false });
  speaker.stdin.end(text, 'utf8');

  // The consumer destroying the stream (client gone, abort) stops both processes.
  out.on('close', killAll);
  if (signal) {
    const onAbort = () => {
      if (!out.destroyed) out.destroy(new ProviderError('failed', PROVIDER, 'speech synthesis was cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    out.on('close', () => signal.removeEventListener('abort', onAbort));
  }
  return out;
}

/** Wait until MP3 bytes are ready, so a synthesizer that fails at once rejects instead of sending an empty stream. */
function firstBytes(audio: PassThrough, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const err = new ProviderError('timeout', PROVIDER, `the local synthesizer produced no audio within ${timeoutMs} ms`);
      audio.destroy(err);
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      audio.off('readable', onReadable);
      audio.off('error', onError);
      audio.off('end', onEnd);
    };
    const onReadable = () => {
      if (audio.readableLength === 0) {
        // The input side ended without a byte: 'end' itself only fires once something reads.
        if (audio.writableEnded) onEnd();
        return;
      }
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onEnd = () => {
      cleanup();
      reject(new ProviderError('failed', PROVIDER, 'the local synthesizer produced no audio'));
    };
    audio.on('readable', onReadable);
    audio.once('error', onError);
    audio.once('end', onEnd);
  });
}
