// The text-to-speech chooser: ElevenLabs when an API key is configured, the local espeak-ng synthesizer
// always (CONTRACTS §4), each wrapped so every synthesis is recorded with its characters and cost.
import { performance } from 'node:perf_hooks';

import { ProviderError } from '../provider-error';
import type { RetryPolicy } from '../shared/resilience';
import type { UsageRecorder } from '../shared/usage';
import { createElevenLabsTextToSpeech, ELEVENLABS_DEFAULT_MODEL_ID } from './elevenlabs.adapter';
import { createLocalTextToSpeech, type LocalTextToSpeechOptions } from './local.adapter';
import type { TextToSpeech, TextToSpeechProviderName } from './text-to-speech.port';

export * from './text-to-speech.port';
export { createElevenLabsTextToSpeech, estimateElevenLabsCost, ELEVENLABS_USD_PER_1000_CHARACTERS } from './elevenlabs.adapter';
export type { ElevenLabsTextToSpeechOptions } from './elevenlabs.adapter';
export { createLocalTextToSpeech, parseEspeakVoices } from './local.adapter';
export type { LocalTextToSpeechOptions } from './local.adapter';

export const TEXT_TO_SPEECH_PROVIDERS = ['elevenlabs', 'local'] as const satisfies readonly TextToSpeechProviderName[];

export interface TextToSpeechConfig {
  ELEVENLABS_API_KEY?: string;
  ELEVENLABS_BASE_URL?: string;
}

export interface TextToSpeechDeps {
  usage: UsageRecorder;
  timeoutMs?: number;
  retry?: RetryPolicy;
  /** Binary paths and speaking rate for the local synthesizer. */
  local?: Omit<LocalTextToSpeechOptions, 'timeoutMs'>;
}

export interface TextToSpeechProviders {
  /** The provider named in the path (/api/tts/{tts_provider}), when it is configured. */
  byName(name: string): TextToSpeech | undefined;
  /** ElevenLabs when configured, otherwise local. */
  default: TextToSpeech;
  names: TextToSpeechProviderName[];
}

export function createTextToSpeech(config: TextToSpeechConfig, deps: TextToSpeechDeps): TextToSpeechProviders {
  const apiKey = config.ELEVENLABS_API_KEY?.trim();
  const names: TextToSpeechProviderName[] = apiKey ? ['elevenlabs', 'local'] : ['local'];
  const built = new Map<TextToSpeechProviderName, TextToSpeech>();

  const build = (name: TextToSpeechProviderName): TextToSpeech => {
    switch (name) {
      case 'elevenlabs':
        return createElevenLabsTextToSpeech({
          apiKey: apiKey ?? '',
          baseUrl: config.ELEVENLABS_BASE_URL || undefined,
          timeoutMs: deps.timeoutMs,
          retry: deps.retry,
        });
      case 'local':
        return createLocalTextToSpeech({ ...deps.local, timeoutMs: deps.timeoutMs });
      default: {
        const unknown: never = name;
        throw new Error(`unknown text-to-speech provider ${String(unknown)}`);
      }
    }
  };
  for (const name of names) built.set(name, withUsage(build(name), deps.usage));

  const byName = (name: string) => built.get(name as TextToSpeechProviderName);
  return { byName, default: built.get(names[0]) as TextToSpeech, names };
}

/**
 * Record every synthesis in the usage log, successes and provider failures alike; listing voices costs
 * nothing, and neither does input the provider refuses (an unknown voice: not_found; an empty text: rejected_input): that request is
 * the caller's 400 and leaves no row behind.
 */
export function withUsage(tts: TextToSpeech, usage: UsageRecorder): TextToSpeech {
  return {
    provider: tts.provider,
    available: () => tts.available(),
    listVoices: () => tts.listVoices(),
    async synthesize(text, options = {}) {
      const started = performance.now();
      const base = {
        userId: options.userId ?? null,
        feature: options.feature ?? 'tts',
        provider: tts.provider,
        model: tts.provider === 'elevenlabs' ? (options.modelId ?? ELEVENLABS_DEFAULT_MODEL_ID) : 'espeak-ng',
        operation: 'tts' as const,
      };
      try {
        const synthesis = await tts.synthesize(text, options);
        await usage.record({
          ...base,
          characters: synthesis.characters,
          costUsd: synthesis.estimatedCostUsd,
          latencyMs: performance.now() - started,
          success: true,
          metadata: { voiceId: synthesis.voiceId },
        });
        return synthesis;
      } catch (err) {
        if (err instanceof ProviderError && (err.kind === 'rejected_input' || err.kind === 'not_found')) throw err;
        await usage.record({
          ...base,
          characters: typeof text === 'string' ? text.length : 0,
          costUsd: 0,
          latencyMs: performance.now() - started,
          success: false,
          errorCode: err instanceof ProviderError ? err.kind : 'failed',
        });
        throw err;
      }
    },
  };
}
