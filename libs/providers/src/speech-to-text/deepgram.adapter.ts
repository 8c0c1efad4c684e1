// Deepgram (stt_fallback) pre-recorded transcription: POST /v1/listen with the media streamed as the body
// (a fresh stream per attempt), through the official SDK pointed at a configurable base URL so tests use a
// local fake (CONTRACTS §4).
import type * as DeepgramSdk from '@deepgram/sdk';
import { ProviderError } from '../provider-error';
import { DEFAULT_RETRY, type RetryPolicy, withRetry, withTimeout } from '../shared/resilience';
import { assertWithinCap, type SpeechToText, type TranscribeOptions, type Transcription, type TranscriptWord } from './speech-to-text.port';
import { sttCostUsd } from './stt-pricing';
import { raceAbort, toProviderError } from './stt-errors';
import { lazyModule } from '../shared/lazy-module';

const loadSdk = lazyModule(() => require('@deepgram/sdk') as typeof DeepgramSdk);

const PROVIDER = 'deepgram';
/** Deepgram's documented maximum for pre-recorded audio: 2 GB per file. */
export const DEEPGRAM_MAX_BYTES = 2 * 1000 ** 3;

export interface DeepgramSpeechConfig {
  apiKey: string;
  /** DEEPGRAM_BASE_URL; default https://api.deepgram.com. */
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Largest media accepted; default DEEPGRAM_MAX_BYTES. */
  maxBytes?: number;
}

/** The parts of Deepgram's ListenV1Response we read (punctuated_word is on the wire, not in the SDK type). */
interface ListenResponseLike {
  metadata?: { duration?: number };
  results?: {
    channels?: Array<{
      detected_language?: string;
      alternatives?: Array<{
        transcript?: string;
        confidence?: number;
        words?: Array<{ word?: string; punctuated_word?: string; start?: number; end?: number; confidence?: number }>;
      }>;
    }>;
  };
}

export function parseDeepgramResponse(body: ListenResponseLike, requestedLanguage: string | undefined): Transcription {
  if (!body.results) throw new ProviderError('failed', PROVIDER, 'deepgram answered without a transcript');
  const channel = body.results.channels?.[0];
  const best = channel?.alternatives?.[0];
  const words: TranscriptWord[] = (best?.words ?? []).flatMap((w) => {
    const word = w.punctuated_word || w.word;
    return word ? [{ word, start: w.start ?? 0, end: w.end ?? 0, confidence: w.confidence ?? 0 }] : [];
  });
  const durationSeconds = body.metadata?.duration ?? words.at(-1)?.end ?? 0;
  return {
    text: (best?.transcript ?? '').trim(),
    language: channel?.detected_language ?? (requestedLanguage && requestedLanguage !== 'auto' ? requestedLanguage : 'en'),
    confidence: Math.min(1, Math.max(0, best?.confidence ?? 0)),
    durationSeconds,
    provider: 'deepgram',
    costUsd: sttCostUsd('deepgram', durationSeconds),
    words,
  };
}

/** Keywords from a free-text prompt: Deepgram boosts single words, so phrases are split into them. */
export function keywordsFrom(prompt: string | undefined): string[] {
  if (!prompt) return [];
  const words = prompt.split(/[^\p{L}\p{N}'-]+/u).filter((w) => w.length >= 3);
  return [...new Set(words)].slice(0, 50);
}

export function createDeepgramSpeechToText(config: DeepgramSpeechConfig): SpeechToText {
  if (!config.apiKey) throw new Error('Deepgram speech-to-text needs an API key (DEEPGRAM_API_KEY)');
  const timeoutMs = config.timeoutMs ?? 120_000;
  const retry = config.retry ?? DEFAULT_RETRY;
  const model = config.model ?? 'nova-2';
  // Retries are ours (withRetry), so the SDK's are switched off.
  const client = new (loadSdk().DeepgramClient)({ apiKey: config.apiKey, ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}), maxRetries: 0 });

  function request(options: TranscribeOptions) {
    const keywords = keywordsFrom(options.prompt);
    const auto = options.language === 'auto';
    return {
      model,
      smart_format: true,
      punctuate: true,
      ...(auto ? { detect_language: true } : { language: options.language || 'en' }),
      ...(keywords.length ? { keywords } : {}),
    };
  }

  const maxBytes = config.maxBytes ?? DEEPGRAM_MAX_BYTES;
  return {
    provider: 'deepgram',
    maxBytes,
    async transcribe(media, options) {
      assertWithinCap(PROVIDER, media, maxBytes);
      const params = request(options);
      const contentType = options.mimeType.split(';')[0].trim() || 'application/octet-stream';
      const body = await withRetry(
        () =>
          withTimeout(PROVIDER, timeoutMs, async (signal) => {
            // Streamed with its length, so nothing holds the whole file and the upload is not chunked.
            const data = media.open();
            try {
              const call = client.listen.v1.media.transcribeFile({ data, contentLength: media.size, contentType }, params, {
                abortSignal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
                maxRetries: 0,
                // The same limit as ours: the SDK leaves its timer running when a request is aborted,
                // so a longer one would outlive every cancelled call.
                timeoutInSeconds: timeoutMs / 1000,
                headers: { 'Content-Type': contentType },
              });
              return (await raceAbort(PROVIDER, options.signal, call)) as ListenResponseLike;
            } catch (err) {
              throw toProviderError(PROVIDER, err);
            } finally {
              // An attempt that failed part-way must not leave its file handle open.
              data.destroy();
            }
          }),
        retry,
      );
      return parseDeepgramResponse(body, options.language);
    },
  };
}
