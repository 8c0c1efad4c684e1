// The text-to-speech port (spec 000 "Transcription and speech"): a provider lists its voices and turns
// text into an MP3 stream; adapters are elevenlabs.adapter.ts (the real vendor) and local.adapter.ts
// (espeak-ng + ffmpeg, the offline default).
import type { Readable } from 'node:stream';

import { ProviderError } from '../provider-error';

export type TextToSpeechProviderName = 'elevenlabs' | 'local';

/** A voice as the API returns it (GET /api/tts/{tts_provider}). */
export interface Voice {
  voice_id: string;
  name: string;
  category: string;
  gender: string | null;
  accent: string | null;
  preview_url: string | null;
}

export interface VoiceSettings {
  stability?: number;
  similarity_boost?: number;
  style?: number;
}

export interface SynthesisOptions {
  voiceId?: string;
  modelId?: string;
  outputFormat?: string;
  voiceSettings?: VoiceSettings;
  /** Aborting it stops the synthesis and destroys the audio stream. */
  signal?: AbortSignal;
  /** Who asked and for what, for the usage log (defaults: anonymous, feature 'tts'). */
  userId?: string | null;
  feature?: string;
}

export interface Synthesis {
  /** MP3 audio, streamed as the provider produces it; a failure part-way destroys it with a ProviderError. */
  audio: Readable;
  contentType: 'audio/mpeg';
  voiceId: string;
  characters: number;
  estimatedCostUsd: number;
  provider: TextToSpeechProviderName;
}

export interface TextToSpeech {
  readonly provider: TextToSpeechProviderName;
  /** Whether this provider can synthesize right now (configured, binaries installed). */
  available(): Promise<boolean>;
  /** The voices this provider offers. */
  listVoices(): Promise<Voice[]>;
  /** Turn text into an MP3 stream; resolves once the provider has accepted the request. */
  synthesize(text: string, options?: SynthesisOptions): Promise<Synthesis>;
}

/** ElevenLabs refuses longer requests; the same limit keeps the local synthesizer's run time bounded. */
export const MAX_TTS_CHARACTERS = 5000;

/** Refuse empty and over-long text before any provider work; returns the billed character count. */
export function checkSynthesisText(provider: TextToSpeechProviderName, text: string): number {
  if (typeof text !== 'string' || text.trim().length === 0) {
    throw new ProviderError('rejected_input', provider, 'text to synthesize is empty');
  }
  if (text.length > MAX_TTS_CHARACTERS) {
    throw new ProviderError('rejected_input', provider, `text to synthesize is longer than ${MAX_TTS_CHARACTERS} characters`);
  }
  return text.length;
}
