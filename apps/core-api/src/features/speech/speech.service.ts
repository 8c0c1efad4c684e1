// POST /api/transcribe and /api/tts/{tts_provider} (spec 000 "Transcription and speech"): plain inputs,
// provider calls through the ports of libs/providers, failures as AppErrors in our words.
import { AppError, badRequest, notFound } from '@story/http';
import {
  EnglishOnlyError,
  mediaFromBuffer,
  ProviderError,
  TEXT_TO_SPEECH_PROVIDERS,
  type SpeechRecognition,
  type Synthesis,
  type TextToSpeech,
  type TextToSpeechProviders,
  type Voice,
  type VoiceSettings,
} from '@story/providers';
import { providerFailure } from './provider-failure';
import type { UploadedAudio } from './audio-upload';

export const TRANSCRIBE_PROVIDER_CHOICES = ['auto', 'stt_primary', 'stt_fallback'] as const;
export type TranscribeProviderChoice = (typeof TRANSCRIBE_PROVIDER_CHOICES)[number];

export interface TranscribeInput {
  audio: UploadedAudio;
  /** BCP-47 code or 'auto'; unset means the provider's default (English). */
  language?: string;
  provider: TranscribeProviderChoice;
  prompt?: string;
  userId: string;
}

export interface TranscribeResult {
  transcript: string;
  provider: string;
  confidence: number;
  language: string;
  cost: number;
  duration: number;
  metadata: { audioSize: number; audioType: string; processingTime: number; words?: number; model?: string };
}

export interface SynthesizeInput {
  text: string;
  voiceId?: string;
  modelId?: string;
  outputFormat?: string;
  voiceSettings?: VoiceSettings;
  userId: string;
  feature: string;
  signal?: AbortSignal;
  /** Request field that carried the voice id, for the 400 on an unknown voice (default voice_id). */
  voiceField?: string;
}

export interface SpeechServiceDeps {
  speech: SpeechRecognition;
  tts: TextToSpeechProviders;
  /** The caller's user_voice_settings.preferred_language (null without saved settings). */
  preferredLanguage?: (userId: string) => Promise<string | null>;
}

export function createSpeechService({ speech, tts, preferredLanguage }: SpeechServiceDeps) {
  function ttsProvider(name: string): TextToSpeech {
    const provider = (TEXT_TO_SPEECH_PROVIDERS as readonly string[]).includes(name) ? tts.byName(name) : undefined;
    if (!provider) {
      throw notFound(`Text-to-speech provider "${name}"`, {
        details: `This server offers ${tts.names.map((n) => `"${n}"`).join(' and ')}`,
      });
    }
    return provider;
  }

  async function synthesizeWith(provider: TextToSpeech, input: SynthesizeInput): Promise<Synthesis> {
    try {
      return await provider.synthesize(input.text, {
        voiceId: input.voiceId,
        modelId: input.modelId,
        outputFormat: input.outputFormat,
        voiceSettings: input.voiceSettings,
        userId: input.userId,
        feature: input.feature,
        signal: input.signal,
      });
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'not_found' && input.voiceId !== undefined) {
        const field = input.voiceField ?? 'voice_id';
        throw badRequest(`${field}: voice "${input.voiceId}" is not offered by the ${provider.provider} provider`, { field });
      }
      throw providerFailure(err, {
        what: 'Speech synthesis',
        field: input.outputFormat !== undefined ? 'output_format' : 'text',
        rejected:
          input.outputFormat !== undefined
            ? `The ${provider.provider} provider cannot produce output_format "${input.outputFormat}" (MP3 formats only)`
            : `The ${provider.provider} provider refused this text`,
      });
    }
  }

  return {
    async transcribe(input: TranscribeInput): Promise<TranscribeResult> {
      if (!speech.available) {
        throw new AppError('unavailable', 'Speech recognition is not configured on this server, so audio cannot be transcribed here.', {
          details: 'An operator can enable it with STT_PRIMARY=local (offline, English), STT_PRIMARY=google or STT_FALLBACK=deepgram.',
        });
      }
      const started = performance.now();
      // Without a language in the request, the caller's voice settings tell an English-only recogniser what it would hear.
      const named = input.language !== undefined && input.language !== 'auto';
      const preferred = named || !preferredLanguage ? undefined : ((await preferredLanguage(input.userId)) ?? undefined);
      try {
        // At most 8 MB (the multipart limit), already in memory: handed on as a re-readable source.
        const result = await speech.transcribe(mediaFromBuffer(input.audio.buffer), {
          mimeType: input.audio.mimeType,
          language: input.language,
          preferredLanguage: preferred,
          prompt: input.prompt,
          provider: input.provider,
          userId: input.userId,
          feature: 'transcribe',
        });
        return {
          transcript: result.text,
          provider: result.provider,
          confidence: Math.min(1, Math.max(0, result.confidence)),
          language: result.language,
          cost: result.costUsd,
          duration: result.durationSeconds,
          metadata: {
            audioSize: input.audio.buffer.length,
            audioType: input.audio.mimeType,
            processingTime: Math.round(performance.now() - started),
            ...(result.words ? { words: result.words.length } : {}),
            ...(result.model ? { model: result.model } : {}),
          },
        };
      } catch (err) {
        // A slot asked for by name that this server lacks: the request must change, not be retried.
        if (err instanceof ProviderError && err.kind === 'unavailable' && err.provider === input.provider) {
          throw badRequest(`provider ${input.provider} is not configured on this server; use "auto"`, { field: 'provider' });
        }
        // Our own words, naming the language and the setting that adds a cloud provider (CONTRACTS §4).
        if (err instanceof EnglishOnlyError) throw badRequest(`language: ${err.message}`, { field: 'language' });
        // The local recogniser's refusals say what is wrong with the media (no audio track, too long, unreadable).
        if (err instanceof ProviderError && err.kind === 'rejected_input' && err.provider === 'local') throw badRequest(`audio: ${err.message}`, { field: 'audio' });
        throw providerFailure(err, {
          what: 'Speech recognition',
          field: 'audio',
          rejected: 'The speech provider could not read this audio',
        });
      }
    },

    async voices(providerName: string): Promise<{ voices: Voice[]; total: number }> {
      const provider = ttsProvider(providerName);
      try {
        const voices = await provider.listVoices();
        return { voices, total: voices.length };
      } catch (err) {
        throw providerFailure(err, { what: 'Listing voices' });
      }
    },

    /** Synthesis by the provider named in the path. */
    synthesize(providerName: string, input: SynthesizeInput): Promise<Synthesis> {
      return synthesizeWith(ttsProvider(providerName), input);
    },

    /** Synthesis by the server's default provider (the interviewer's voice). */
    synthesizeDefault(input: SynthesizeInput): Promise<Synthesis> {
      return synthesizeWith(tts.default, input);
    },
  };
}

export type SpeechService = ReturnType<typeof createSpeechService>;
