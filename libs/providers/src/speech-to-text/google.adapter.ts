// Google Cloud Speech-to-Text (stt_primary) over the SDK's REST transport (`fallback: true`): the same
// wire format in production and in tests, where the SDK talks to a local fake (CONTRACTS §4). Audio
// under 14 MB goes inline to speech:recognize (the only place media is read whole: the request carries it
// base64-encoded); larger media goes through longrunningrecognize with the object streamed into Cloud
// Storage, which needs a `gcsUri` resolver.
import type * as GoogleSpeechSdk from '@google-cloud/speech';
import type { v1, v1p1beta1 } from '@google-cloud/speech';
import { ProviderError } from '../provider-error';
import { DEFAULT_RETRY, type RetryPolicy, withRetry, withTimeout } from '../shared/resilience';
import { assertWithinCap, readMedia, type MediaSource, type SpeechToText, type TranscribeOptions, type Transcription, type TranscriptWord } from './speech-to-text.port';
import { sttCostUsd } from './stt-pricing';
import { raceAbort, toProviderError } from './stt-errors';
import { lazyModule } from '../shared/lazy-module';

const loadSdk = lazyModule(() => require('@google-cloud/speech') as typeof GoogleSpeechSdk);

const PROVIDER = 'google';
/** Spec 000: "Transcription inline size: under 14 MB". */
export const GOOGLE_INLINE_LIMIT_BYTES = 14 * 1024 * 1024;
/**
 * The cap through Cloud Storage. Google bounds long-running recognition by length (480 minutes), not bytes;
 * 2 GB keeps one upload bounded and is far above the stored-file limit (spec 000: 50 MB).
 */
export const GOOGLE_LONG_RUNNING_MAX_BYTES = 2 * 1000 ** 3;
/** Languages Google may pick from when the caller asks for 'auto' (v1 allows three alternatives). */
const AUTO_ALTERNATIVES = ['es-ES', 'fr-FR', 'de-DE'];

export interface GoogleSpeechConfig {
  /** Service-account key file (GOOGLE_APPLICATION_CREDENTIALS); without it and apiKey, application default credentials. */
  keyFilename?: string;
  /** API key credential; sent as x-goog-api-key, needs no token exchange. */
  apiKey?: string;
  /** GOOGLE_CLOUD_PROJECT; given, the auth library skips looking it up (gcloud, metadata server). */
  projectId?: string;
  /** Base URL or host[:port] (GOOGLE_SPEECH_ENDPOINT); default https://speech.googleapis.com. */
  endpoint?: string;
  /** Per-request limit for inline recognition. */
  timeoutMs?: number;
  /** Overall limit for one long-running recognition, polling included. */
  longRunningTimeoutMs?: number;
  pollIntervalMs?: number;
  retry?: RetryPolicy;
  inlineLimitBytes?: number;
  /** Streams large media into Cloud Storage and returns its gs:// URI, for the long-running path. */
  gcsUri?: (media: MediaSource, options: { mimeType: string }) => Promise<string>;
  /** Largest media through Cloud Storage; default GOOGLE_LONG_RUNNING_MAX_BYTES. */
  longRunningMaxBytes?: number;
}

type Encoding = 'LINEAR16' | 'FLAC' | 'OGG_OPUS' | 'WEBM_OPUS' | 'MP3';

interface GoogleDuration {
  seconds?: number | string | { toNumber(): number } | null;
  nanos?: number | null;
}
type DurationLike = GoogleDuration | string | null | undefined;

/** The parts of (LongRunning)RecognizeResponse we read; v1 and v1p1beta1 share them. */
interface RecognizeResponseLike {
  results?: Array<{
    alternatives?: Array<{
      transcript?: string | null;
      confidence?: number | null;
      words?: Array<{ word?: string | null; startTime?: DurationLike; endTime?: DurationLike; confidence?: number | null }> | null;
    }> | null;
    resultEndTime?: DurationLike;
    languageCode?: string | null;
  }> | null;
  totalBilledTime?: DurationLike;
}

interface RecognitionConfig {
  encoding: Encoding;
  sampleRateHertz?: number;
  languageCode: string;
  alternativeLanguageCodes?: string[];
  enableWordTimeOffsets: boolean;
  enableAutomaticPunctuation: boolean;
  speechContexts?: Array<{ phrases: string[] }>;
}

/** Which v1 encoding reads this media type; undefined when Google's API cannot read it (video, MP4/M4A). */
export function googleEncodingFor(mimeType: string): { encoding: Encoding; sampleRateHertz?: number } | undefined {
  const base = mimeType.split(';')[0].trim().toLowerCase();
  switch (base) {
    case 'audio/webm':
      // Browser MediaRecorder webm carries Opus, which always decodes at 48 kHz.
      return { encoding: 'WEBM_OPUS', sampleRateHertz: 48000 };
    case 'audio/ogg':
    case 'audio/opus':
      return { encoding: 'OGG_OPUS', sampleRateHertz: 48000 };
    case 'audio/wav':
    case 'audio/x-wav':
    case 'audio/wave':
    case 'audio/vnd.wave':
      // No sample rate: Google reads it from the WAV header.
      return { encoding: 'LINEAR16' };
    case 'audio/flac':
    case 'audio/x-flac':
      return { encoding: 'FLAC' };
    case 'audio/mpeg':
    case 'audio/mp3':
      return { encoding: 'MP3' };
    default:
      return undefined;
  }
}

function seconds(value: DurationLike): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') {
    const match = /^(-?\d+(?:\.\d+)?)s$/.exec(value.trim());
    return match ? Number(match[1]) : 0;
  }
  const raw = value.seconds;
  const whole = raw === null || raw === undefined ? 0 : typeof raw === 'object' ? raw.toNumber() : Number(raw);
  return whole + (value.nanos ?? 0) / 1e9;
}

/** Context phrases from a free-text prompt: Google caps a phrase at 100 characters. */
export function phrasesFrom(prompt: string | undefined): string[] {
  if (!prompt) return [];
  return prompt
    .split(/[,;\n]+/)
    .map((p) => p.trim().slice(0, 100))
    .filter((p) => p.length > 0)
    .slice(0, 50);
}

function normalizeLanguage(code: string): string {
  const [lang, region, ...rest] = code.split('-');
  if (!region) return lang.toLowerCase();
  return [lang.toLowerCase(), region.length === 2 ? region.toUpperCase() : region, ...rest].join('-');
}

export function parseGoogleResponse(response: RecognizeResponseLike, requestedLanguage: string): Transcription {
  const texts: string[] = [];
  const confidences: number[] = [];
  const words: TranscriptWord[] = [];
  let language: string | undefined;
  let endSeconds = 0;
  for (const result of response.results ?? []) {
    const best = result.alternatives?.[0];
    endSeconds = Math.max(endSeconds, seconds(result.resultEndTime));
    if (!language && result.languageCode) language = normalizeLanguage(result.languageCode);
    if (!best?.transcript) continue;
    texts.push(best.transcript.trim());
    if (best.confidence) confidences.push(best.confidence);
    for (const w of best.words ?? []) {
      if (!w.word) continue;
      const end = seconds(w.endTime);
      endSeconds = Math.max(endSeconds, end);
      words.push({ word: w.word, start: seconds(w.startTime), end, confidence: w.confidence || best.confidence || 0 });
    }
  }
  const billedSeconds = seconds(response.totalBilledTime);
  const durationSeconds = endSeconds || billedSeconds;
  const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 0;
  return {
    text: texts.filter(Boolean).join(' '),
    language: language ?? requestedLanguage,
    confidence: Math.round(Math.min(1, Math.max(0, confidence)) * 1e4) / 1e4,
    durationSeconds,
    provider: 'google',
    costUsd: sttCostUsd('google', billedSeconds || durationSeconds),
    words,
  };
}

type ClientOptions = NonNullable<ConstructorParameters<typeof v1.SpeechClient>[0]>;

function clientOptions(config: GoogleSpeechConfig): ClientOptions {
  // Node's own fetch for every auth-library request: gaxios otherwise loads node-fetch through a
  // dynamic import, which CommonJS test runners (Jest) cannot execute.
  const options: ClientOptions = { fallback: true, clientOptions: { transporterOptions: { fetchImplementation: fetch } } };
  if (config.endpoint) {
    const url = new URL(config.endpoint.includes('://') ? config.endpoint : `https://${config.endpoint}`);
    options.apiEndpoint = url.hostname;
    options.protocol = url.protocol.replace(':', '');
    options.port = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  }
  if (config.projectId) options.projectId = config.projectId;
  if (config.apiKey) options.apiKey = config.apiKey;
  else if (config.keyFilename) options.keyFilename = config.keyFilename;
  return options;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function createGoogleSpeechToText(config: GoogleSpeechConfig = {}): SpeechToText {
  const timeoutMs = config.timeoutMs ?? 120_000;
  const longRunningTimeoutMs = config.longRunningTimeoutMs ?? 30 * 60_000;
  const pollIntervalMs = config.pollIntervalMs ?? 3000;
  const retry = config.retry ?? DEFAULT_RETRY;
  const inlineLimit = config.inlineLimitBytes ?? GOOGLE_INLINE_LIMIT_BYTES;
  // Clients are built on first use: constructing one reads credentials, which tests and `npm start`
  // without Google configured never need. MP3 is a v1p1beta1-only encoding, hence the second client.
  let stable: v1.SpeechClient | undefined;
  let beta: v1p1beta1.SpeechClient | undefined;
  const client = (encoding: Encoding) =>
    encoding === 'MP3' ? (beta ??= new (loadSdk().v1p1beta1.SpeechClient)(clientOptions(config))) : (stable ??= new (loadSdk().v1.SpeechClient)(clientOptions(config)));
  // Retries are ours (withRetry), so the SDK's own are switched off.
  const callOptions = { retry: null };
  // Without a bucket only inline recognition exists, so anything at the inline limit is over the cap.
  const maxBytes = config.gcsUri ? (config.longRunningMaxBytes ?? GOOGLE_LONG_RUNNING_MAX_BYTES) : inlineLimit - 1;

  function buildConfig(options: TranscribeOptions): RecognitionConfig {
    const format = googleEncodingFor(options.mimeType);
    if (!format) throw new ProviderError('rejected_input', PROVIDER, `google cannot read ${options.mimeType.split(';')[0]} media`);
    const requested = options.language && options.language !== 'auto' ? options.language : undefined;
    const phrases = phrasesFrom(options.prompt);
    return {
      ...format,
      languageCode: requested ?? 'en-US',
      ...(options.language === 'auto' ? { alternativeLanguageCodes: AUTO_ALTERNATIVES } : {}),
      enableWordTimeOffsets: true,
      enableAutomaticPunctuation: true,
      ...(phrases.length ? { speechContexts: [{ phrases }] } : {}),
    };
  }

  async function inline(media: MediaSource, recognition: RecognitionConfig, signal?: AbortSignal): Promise<RecognizeResponseLike> {
    const speech = client(recognition.encoding);
    const content = await readMedia(media);
    return withRetry(
      () =>
        withTimeout(PROVIDER, timeoutMs, async () => {
          try {
            const request = { config: recognition, audio: { content } };
            const [response] = await raceAbort(PROVIDER, signal, (speech as v1.SpeechClient).recognize(request, callOptions));
            return response as RecognizeResponseLike;
          } catch (err) {
            throw toProviderError(PROVIDER, err);
          }
        }),
      retry,
    );
  }

  async function longRunning(media: MediaSource, recognition: RecognitionConfig, options: TranscribeOptions): Promise<RecognizeResponseLike> {
    if (!config.gcsUri) {
      throw new ProviderError('rejected_input', PROVIDER, 'media too large for inline recognition and no storage bucket configured for the long-running path');
    }
    const uri = await config.gcsUri(media, { mimeType: options.mimeType });
    const speech = client(recognition.encoding) as v1.SpeechClient;
    return withTimeout(PROVIDER, longRunningTimeoutMs, async (signal) => {
      const call = <T>(work: () => Promise<T>) =>
        withRetry(
          () =>
            withTimeout(PROVIDER, timeoutMs, async () => {
              try {
                return await raceAbort(PROVIDER, options.signal, work());
              } catch (err) {
                throw toProviderError(PROVIDER, err);
              }
            }),
          retry,
        );
      const [operation] = await call(() => speech.longRunningRecognize({ config: recognition, audio: { uri } }, callOptions));
      const name = operation.name;
      if (!name) throw new ProviderError('failed', PROVIDER, 'google did not return an operation to follow');
      for (;;) {
        const progress = await call(() => speech.checkLongRunningRecognizeProgress(name));
        if (progress.done) {
          if (progress.error) throw toProviderError(PROVIDER, progress.error);
          return (progress.result ?? {}) as RecognizeResponseLike;
        }
        if (signal.aborted) throw new ProviderError('timeout', PROVIDER, 'google did not finish the long-running recognition in time');
        await sleep(pollIntervalMs, signal);
      }
    });
  }

  return {
    provider: 'google',
    maxBytes,
    async transcribe(media, options) {
      const recognition = buildConfig(options);
      if (media.size >= inlineLimit && !config.gcsUri) {
        throw new ProviderError('rejected_input', PROVIDER, 'media too large for inline recognition and no storage bucket configured for the long-running path');
      }
      assertWithinCap(PROVIDER, media, maxBytes);
      const response = media.size >= inlineLimit ? await longRunning(media, recognition, options) : await inline(media, recognition, options.signal);
      return parseGoogleResponse(response, recognition.languageCode);
    },
  };
}
