// ElevenLabs text-to-speech through its official SDK. The SDK's own retries are off: ours (shared/
// resilience.ts) retry 429/5xx/timeouts for voice listing and for synthesis until the audio response has
// started, never after, so a caller never gets audio spliced from two attempts. SDK errors become
// ProviderErrors here, in our words: the provider's response text stays in `cause`, out of the message.
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

import type * as ElevenLabsSdk from '@elevenlabs/elevenlabs-js';
import type { ElevenLabs } from '@elevenlabs/elevenlabs-js';

import { kindForStatus, ProviderError, type ProviderErrorKind } from '../provider-error';
import { lazyModule } from '../shared/lazy-module';
import { DEFAULT_RETRY, type RetryPolicy, withRetry, withTimeout } from '../shared/resilience';
import { checkSynthesisText, type Synthesis, type SynthesisOptions, type TextToSpeech, type Voice } from './text-to-speech.port';

const PROVIDER = 'elevenlabs';

const sdk = lazyModule(() => require('@elevenlabs/elevenlabs-js') as typeof ElevenLabsSdk);

/** Pricing table: USD per 1000 characters synthesized. */
export const ELEVENLABS_USD_PER_1000_CHARACTERS = 0.3;
export const ELEVENLABS_DEFAULT_VOICE_ID = '21m00Tcm4TlvDq8ikWAM';
export const ELEVENLABS_DEFAULT_MODEL_ID = 'eleven_multilingual_v2';
export const ELEVENLABS_DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';

export interface ElevenLabsTextToSpeechOptions {
  apiKey: string;
  /** Point the SDK at another server (tests use a local fake speaking ElevenLabs' wire format). */
  baseUrl?: string;
  /** Per attempt, until the response headers arrive. */
  timeoutMs?: number;
  retry?: RetryPolicy;
  defaultVoiceId?: string;
  defaultModelId?: string;
}

type OutputFormat = ElevenLabs.TextToSpeechStreamRequestOutputFormat;
// The port promises audio/mpeg, so only the MP3 encodings are accepted.
const mp3Formats = lazyModule(() => new Set<string>(Object.values(sdk().ElevenLabs.TextToSpeechStreamRequestOutputFormat).filter((f) => f.startsWith('mp3_'))));

export function estimateElevenLabsCost(characters: number): number {
  return Math.round((characters / 1000) * ELEVENLABS_USD_PER_1000_CHARACTERS * 1e6) / 1e6;
}

const MESSAGES: Record<ProviderErrorKind, string> = {
  auth: 'ElevenLabs refused the API key',
  quota: 'ElevenLabs rate limit or character quota exceeded',
  not_found: 'ElevenLabs does not know the requested voice or model',
  rejected_input: 'ElevenLabs refused the synthesis request',
  timeout: 'ElevenLabs did not answer in time',
  unavailable: 'ElevenLabs is unavailable',
  failed: 'ElevenLabs request failed',
};

/** Translate anything the SDK throws into a ProviderError. */
export function translateElevenLabsError(err: unknown, what: string): ProviderError {
  if (err instanceof ProviderError) return err;
  if (err instanceof sdk().ElevenLabsTimeoutError) {
    return new ProviderError('timeout', PROVIDER, `${MESSAGES.timeout} (${what})`, { cause: err });
  }
  if (err instanceof sdk().ElevenLabsError && typeof err.statusCode === 'number') {
    const kind = kindForStatus(err.statusCode);
    return new ProviderError(kind, PROVIDER, `${MESSAGES[kind]} (${what}, status ${err.statusCode})`, { status: err.statusCode, cause: err });
  }
  if (err instanceof sdk().ElevenLabsError) {
    // No status: the connection failed (refused, reset, DNS) before an answer.
    return new ProviderError('unavailable', PROVIDER, `${MESSAGES.unavailable} (${what}, no response)`, { cause: err });
  }
  return new ProviderError('failed', PROVIDER, `${MESSAGES.failed} (${what})`, { cause: err });
}

function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal {
  return AbortSignal.any(signals.filter((s): s is AbortSignal => s !== undefined));
}

export function createElevenLabsTextToSpeech(options: ElevenLabsTextToSpeechOptions): TextToSpeech {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retry = options.retry ?? DEFAULT_RETRY;
  const defaultVoiceId = options.defaultVoiceId ?? ELEVENLABS_DEFAULT_VOICE_ID;
  const defaultModelId = options.defaultModelId ?? ELEVENLABS_DEFAULT_MODEL_ID;
  const client = new (sdk().ElevenLabsClient)({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    timeoutInSeconds: timeoutMs / 1000,
    maxRetries: 0,
  });

  /** One attempt bounded by our timeout, with SDK errors translated so withRetry can judge them. */
  const attempt = <T>(what: string, call: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal) =>
    withTimeout(PROVIDER, timeoutMs, async (signal) => {
      try {
        return await call(anySignal([signal, outer]));
      } catch (err) {
        if (outer?.aborted) throw new ProviderError('failed', PROVIDER, `${what} was cancelled`, { cause: err });
        if (signal.aborted) throw new ProviderError('timeout', PROVIDER, `${MESSAGES.timeout} (${what})`, { cause: err });
        throw translateElevenLabsError(err, what);
      }
    });

  return {
    provider: PROVIDER,

    async available() {
      return options.apiKey.length > 0;
    },

    async listVoices(): Promise<Voice[]> {
      const response = await withRetry(
        () => attempt('voice listing', (signal) => client.voices.getAll({}, { abortSignal: signal, maxRetries: 0 })),
        retry,
      );
      return response.voices.map((v) => ({
        voice_id: v.voiceId,
        name: v.name ?? v.voiceId,
        category: v.category ?? 'premade',
        gender: v.labels?.gender ?? null,
        accent: v.labels?.accent ?? null,
        preview_url: v.previewUrl ?? null,
      }));
    },

    async synthesize(text: string, opts: SynthesisOptions = {}): Promise<Synthesis> {
      const characters = checkSynthesisText(PROVIDER, text);
      const outputFormat = opts.outputFormat ?? ELEVENLABS_DEFAULT_OUTPUT_FORMAT;
      if (!mp3Formats().has(outputFormat)) {
        throw new ProviderError('rejected_input', PROVIDER, `output format "${outputFormat}" is not an MP3 format ElevenLabs offers`);
      }
      const voiceId = opts.voiceId ?? defaultVoiceId;
      const settings = opts.voiceSettings;
      const request: ElevenLabs.StreamTextToSpeechRequest = {
        text,
        modelId: opts.modelId ?? defaultModelId,
        outputFormat: outputFormat as OutputFormat,
        ...(settings
          ? { voiceSettings: { stability: settings.stability, similarityBoost: settings.similarity_boost, style: settings.style } }
          : {}),
      };

      // Retried only up to here: once the body is flowing, a failure destroys the stream instead.
      const body = await withRetry(
        () =>
          attempt(
            'speech synthesis',
            (signal) => client.textToSpeech.stream(voiceId, request, { abortSignal: signal, maxRetries: 0 }),
            opts.signal,
          ),
        retry,
      );

      return {
        audio: toNodeStream(body as unknown as WebReadableStream<Uint8Array>),
        contentType: 'audio/mpeg',
        voiceId,
        characters,
        estimatedCostUsd: estimateElevenLabsCost(characters),
        provider: PROVIDER,
      };
    },
  };
}

/** Adapt the SDK's web stream chunk by chunk (with backpressure); a broken download becomes a ProviderError. */
function toNodeStream(body: WebReadableStream<Uint8Array>): Readable {
  const source = Readable.fromWeb(body);
  const out = new PassThrough();
  source.once('error', (err) => out.destroy(translateElevenLabsError(err, 'audio download')));
  // The consumer going away cancels the HTTP body, so ElevenLabs stops streaming (and billing) audio nobody hears.
  out.once('close', () => source.destroy());
  source.pipe(out);
  return out;
}
