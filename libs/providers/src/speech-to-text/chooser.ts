// Provider order for server transcription (spec 000 "Recording to story" 5): stt_primary first, then
// stt_fallback when the primary is not configured or fails, except for QuickTime media, which the spec
// keeps away from the fallback. Every provider attempt is logged to usage, failures included.
//
// Any primary failure falls back (rejected_input too: Google's sync API cannot read MP4/M4A or video,
// Deepgram can; auth too: a broken Google credential should not stop transcription). The caller's own
// cancellation never falls back. When both fail, the fallback's error is thrown.
import { ProviderError } from '../provider-error';
import type { UsageRecorder } from '../shared/usage';
import type { MediaSource, SpeechToText, SttProviderName, TranscribeOptions, Transcription } from './speech-to-text.port';
import { toProviderError } from './stt-errors';

/** 'stt_primary' and 'stt_fallback' are the spec's names for the two slots (POST /api/transcribe). */
export type SttProviderChoice = 'auto' | SttProviderName | 'stt_primary' | 'stt_fallback';

export interface RecognitionOptions extends TranscribeOptions {
  provider?: SttProviderChoice;
  userId?: string | null;
  /** Usage feature label; default 'transcription'. */
  feature?: string;
}

export interface SpeechRecognition {
  /** False when no provider is configured: callers keep the browser caption. */
  readonly available: boolean;
  /** Configured providers, primary first. */
  readonly providers: SttProviderName[];
  /** Transcribe with the requested provider, or primary then fallback for 'auto'. */
  transcribe(media: MediaSource, options: RecognitionOptions): Promise<Transcription>;
  /** Release what the adapters hold (the local recogniser's inference threads). */
  close?(): Promise<void>;
}

type Slot = 'stt_primary' | 'stt_fallback';

export const NOT_CONFIGURED_MESSAGE = 'Speech recognition is not configured on this server';

export function isQuickTime(mimeType: string): boolean {
  return mimeType.split(';')[0].trim().toLowerCase() === 'video/quicktime';
}

export function createSpeechRecognition(deps: { primary?: SpeechToText; fallback?: SpeechToText; usage: UsageRecorder }): SpeechRecognition {
  const { primary, fallback, usage } = deps;
  const providers = [primary?.provider, fallback?.provider].filter((p): p is SttProviderName => p !== undefined);

  async function attempt(adapter: SpeechToText, slot: Slot, media: MediaSource, options: RecognitionOptions): Promise<Transcription> {
    const started = performance.now();
    const { provider: _choice, userId, feature, ...transcribeOptions } = options;
    const base = {
      userId: userId ?? null,
      feature: feature ?? 'transcription',
      provider: adapter.provider,
      operation: 'stt' as const,
      metadata: { slot, audioBytes: media.size, mimeType: options.mimeType } as Record<string, unknown>,
    };
    try {
      const result = await adapter.transcribe(media, transcribeOptions);
      const metadata = result.model ? { ...base.metadata, model: result.model } : base.metadata;
      await record({ ...base, metadata, audioSeconds: result.durationSeconds, costUsd: result.costUsd, latencyMs: performance.now() - started, success: true });
      return result;
    } catch (err) {
      const error = toProviderError(adapter.provider, err);
      await record({ ...base, audioSeconds: 0, costUsd: 0, latencyMs: performance.now() - started, success: false, errorCode: error.kind });
      throw error;
    }
  }

  async function record(entry: Parameters<UsageRecorder['record']>[0]) {
    try {
      await usage.record(entry);
    } catch {
      // The recorder promises not to throw; a transcript must not be lost to bookkeeping if it does.
    }
  }

  function byName(choice: Exclude<SttProviderChoice, 'auto'>): { adapter: SpeechToText; slot: Slot } {
    if (choice === 'stt_primary' && primary) return { adapter: primary, slot: 'stt_primary' };
    if (choice === 'stt_fallback' && fallback) return { adapter: fallback, slot: 'stt_fallback' };
    if (primary?.provider === choice) return { adapter: primary, slot: 'stt_primary' };
    if (fallback?.provider === choice) return { adapter: fallback, slot: 'stt_fallback' };
    throw new ProviderError('unavailable', choice, `Speech recognition provider ${choice} is not configured on this server`);
  }

  return {
    available: providers.length > 0,
    providers,
    async close() {
      await Promise.all([primary?.close?.(), fallback?.close?.()]);
    },
    async transcribe(media, options) {
      if (!primary && !fallback) throw new ProviderError('unavailable', 'none', NOT_CONFIGURED_MESSAGE);
      const choice = options.provider ?? 'auto';
      // Asked for by name: that provider only, QuickTime included (the caller chose it).
      if (choice !== 'auto') {
        const { adapter, slot } = byName(choice);
        return attempt(adapter, slot, media, options);
      }
      const quickTime = isQuickTime(options.mimeType);
      if (!primary && fallback) {
        if (quickTime) throw new ProviderError('unavailable', 'none', 'Speech recognition for QuickTime media needs the primary provider, which is not configured');
        return attempt(fallback, 'stt_fallback', media, options);
      }
      if (!primary) throw new ProviderError('unavailable', 'none', NOT_CONFIGURED_MESSAGE);
      try {
        return await attempt(primary, 'stt_primary', media, options);
      } catch (err) {
        if (!fallback || quickTime || options.signal?.aborted) throw err;
        return attempt(fallback, 'stt_fallback', media, options);
      }
    },
  };
}
