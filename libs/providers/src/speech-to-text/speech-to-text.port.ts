// Speech-to-text port (CONVENTIONS 8): one interface the recording and /api/transcribe flows call, with
// an adapter per vendor behind it: google (stt_primary), deepgram (stt_fallback), and local, the offline
// Moonshine recogniser (English only) that is the primary when no cloud provider is configured (CONTRACTS §4).
//
// Media comes as a MediaSource (a file on disk, or bytes already in memory for small uploads), never as
// one Buffer the caller must fill: direct uploads reach the stored-file limit, and each adapter streams
// what it sends. A source opens a fresh stream per read, because a retry or the fallback reads it again.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

import { ProviderError } from '../provider-error';

export interface MediaSource {
  /** Size in bytes (checked against each provider's cap before any upload). */
  readonly size: number;
  /** The file holding the media, when it is on disk. */
  readonly path?: string;
  /** A new stream of the whole media from its first byte. */
  open(): Readable;
}

/** Media in a file on disk (the recording worker's temp file): read as a stream each time. */
export function mediaFromFile(path: string, size: number): MediaSource {
  return { size, path, open: () => createReadStream(path) };
}

/** Media already in memory (a multipart upload of at most 8 MB). */
export function mediaFromBuffer(buffer: Buffer): MediaSource {
  return { size: buffer.length, open: () => Readable.from([buffer], { objectMode: false }) };
}

/** The whole media in memory: only for what a provider must have inline (Google's < 14 MB requests). */
export async function readMedia(media: MediaSource): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of media.open()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes >= MB / 10 ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${bytes} bytes`);

/** Refuse media over a provider's cap before sending a byte; the message is fit for transcript_error. */
export function assertWithinCap(provider: SttProviderName, media: MediaSource, maxBytes: number): void {
  if (media.size > maxBytes) {
    throw new ProviderError('rejected_input', provider, `The recording is ${mb(media.size)}, more than the ${mb(maxBytes)} ${provider} accepts for transcription`);
  }
}

export type SttProviderName = 'google' | 'deepgram' | 'local';

export interface TranscribeOptions {
  /** Media type of the bytes as uploaded, e.g. `audio/webm;codecs=opus`, `video/quicktime`. */
  mimeType: string;
  /** BCP-47 code, or 'auto' to let the provider detect the language. */
  language?: string;
  /**
   * The speaker's language from their settings (user_voice_settings.preferred_language), when the request
   * named none: cloud providers keep detecting, the English-only local recogniser refuses any other.
   */
  preferredLanguage?: string;
  /** Hears how far a long transcription has got (the local recogniser calls it after each piece). */
  onProgress?: (progress: { doneSeconds: number; totalSeconds: number }) => void | Promise<void>;
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
  /** The model that made the transcript, when the provider names it (local: moonshine-base or moonshine-tiny). */
  model?: string;
  costUsd: number;
  /**
   * Word timings. The local recogniser times pieces of speech, not words: each word carries the start and
   * end of the piece it was heard in (see `segments`).
   */
  words?: TranscriptWord[];
  /** The pieces the audio was cut into, with their seconds and text (local recogniser). */
  segments?: TranscriptSegment[];
}

export interface TranscriptSegment {
  /** Seconds from the start of the media. */
  start: number;
  end: number;
  text: string;
}

export interface SpeechToText {
  readonly provider: SttProviderName;
  /** The largest media, in bytes, this provider takes (as configured); larger is refused before any upload. */
  readonly maxBytes: number;
  /** Transcribe one recording; failures are ProviderErrors (rejected_input for media the provider cannot read or over maxBytes). */
  transcribe(media: MediaSource, options: TranscribeOptions): Promise<Transcription>;
  /** Release threads or connections the adapter holds (the local recogniser's inference threads). */
  close?(): Promise<void>;
}
