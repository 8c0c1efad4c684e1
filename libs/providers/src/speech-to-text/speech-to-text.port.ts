// Speech-to-text port (CONVENTIONS 8): one interface the recording and /api/transcribe flows call, with
// an adapter per vendor (google as stt_primary, deepgram as stt_fallback) behind it. There is no local
// recogniser: offline engines available here produce nonsense on free speech (CONTRACTS §4).

export type SttProviderName = 'google' | 'deepgram';

export interface TranscribeOptions {
  /** Media type of the bytes as uploaded, e.g. `audio/webm;codecs=opus`, `video/quicktime`. */
  mimeType: string;
  /** BCP-47 code, or 'auto' to let the provider detect the language. */
  language?: string;
  /** Context phrases (names, places) that bias recognition. */
  prompt?: string;
  /** Cancels the call; the adapter then throws ProviderError('failed'). */
  signal?: AbortSignal;
}

export interface TranscriptWord {
  word: string;
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  confidence: number;
}

export interface Transcription {
  text: string;
  language: string;
  /** 0..1 */
  confidence: number;
  durationSeconds: number;
  /** The provider's real name; this is what transcript_source stores. */
  provider: SttProviderName;
  costUsd: number;
  words?: TranscriptWord[];
}

export interface SpeechToText {
  readonly provider: SttProviderName;
  /** Transcribe one recording; failures are ProviderErrors (rejected_input for media the provider cannot read). */
  transcribe(media: Buffer, options: TranscribeOptions): Promise<Transcription>;
}
