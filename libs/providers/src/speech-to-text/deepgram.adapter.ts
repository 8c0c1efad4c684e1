// Deepgram (stt_fallback) pre-recorded transcription: POST /v1/listen with the media as the body, through
// the official SDK pointed at a configurable base URL so tests use a local fake (CONTRACTS §4).
import { DeepgramClient } from '@deepgram/sdk';
import { ProviderError } from '../provider-error';
import { DEFAULT_RETRY, type RetryPolicy, withRetry, withTimeout } from '../shared/resilience';
import type { SpeechToText, TranscribeOptions, Transcription, TranscriptWord } from './speech-to-text.port';
import { sttCostUsd } from './stt-pricing';
import { raceAbort, toProviderError } from './stt-errors';

const PROVIDER = 'deepgram';

export interface DeepgramSpeechConfig {
  apiKey: string;
  /** DEEPGRAM_BASE_URL; default https://api.deepgram.com. */
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  retry?: RetryPolicy;
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
  const client = new DeepgramClient({ apiKey: config.apiKey, ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}), maxRetries: 0 });

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

  return {
    provider: 'deepgram',
    async transcribe(media, options) {
      const params = request(options);
      const body = await withRetry(
        () =>
          withTimeout(PROVIDER, timeoutMs, async (signal) => {
            try {
              const call = client.listen.v1.media.transcribeFile(media, params, {
                abortSignal: options.signal ? AbortSignal.any([signal, options.signal]) : signal,
                maxRetries: 0,
                // The same limit as ours: the SDK leaves its timer running when a request is aborted,
                // so a longer one would outlive every cancelled call.
                timeoutInSeconds: timeoutMs / 1000,
                headers: { 'Content-Type': options.mimeType.split(';')[0].trim() || 'application/octet-stream' },
              });
              return (await raceAbort(PROVIDER, options.signal, call)) as ListenResponseLike;
            } catch (err) {
              throw toProviderError(PROVIDER, err);
            }
          }),
        retry,
      );
      return parseDeepgramResponse(body, options.language);
    },
  };
}
