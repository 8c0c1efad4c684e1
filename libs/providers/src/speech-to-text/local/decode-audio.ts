// Any accepted recording (webm, mp3, wav, m4a, ogg, phone video) to 16 kHz mono float samples, with the
// ffmpeg and ffprobe the project ships (media-binaries.ts), spawned through the shared process spawner so
// a large heap does not stall the event loop while they fork. ffprobe first, so each refusal names its
// reason: unreadable or empty media, no audio track, too long. The files are read from disk because MP4
// and M4A keep their index at the end, which a pipe cannot seek to.
import { ffmpegPath, ffprobePath } from '../../media-binaries';
import { sharedProcessSpawner } from '../../process-spawner';
import { ProviderError } from '../../provider-error';
import { SAMPLE_RATE } from './pauses';

const PROVIDER = 'local';

export interface DecodedAudio {
  samples: Float32Array;
  /** Seconds of audio decoded. */
  seconds: number;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

export const unreadableMedia = () => new ProviderError('rejected_input', PROVIDER, 'The local speech recogniser could not read this media: the file is empty, corrupt or not audio');
const noAudioTrack = () => new ProviderError('rejected_input', PROVIDER, 'This recording has no audio track, so there is no speech to transcribe');
const span = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} seconds`);
const tooLong = (seconds: number | null, maxSeconds: number) =>
  new ProviderError(
    'rejected_input',
    PROVIDER,
    `This recording is ${seconds === null ? `longer than ${span(maxSeconds)}` : `${clock(seconds)} long`}; the local speech recogniser transcribes at most ${span(maxSeconds)}`,
  );

async function collect(cmd: string, args: string[], options: { signal?: AbortSignal; timeoutMs: number; limitBytes: number }): Promise<{ code: number; chunks: Buffer[]; bytes: number; overLimit: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let overLimit = false;
  // Past the limit the program is stopped: nothing more of it is wanted.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const { code } = await sharedProcessSpawner().run(cmd, args, {
    signal,
    timeoutMs: options.timeoutMs,
    onStdout: (chunk) => {
      if (overLimit) return;
      bytes += chunk.length;
      if (bytes > options.limitBytes) {
        overLimit = true;
        stop.abort();
      } else chunks.push(chunk);
    },
  });
  return { code, chunks, bytes, overLimit };
}

/** Whether the file has an audio stream, and its duration when the container states one. */
async function probe(file: string, signal?: AbortSignal): Promise<{ hasAudio: boolean; seconds: number | null }> {
  const { code, chunks, overLimit } = await collect(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration,format_name:stream=codec_type', '-of', 'json', file], {
    signal,
    timeoutMs: 60_000,
    limitBytes: 1024 * 1024,
  });
  if (code !== 0 || overLimit) throw unreadableMedia();
  let parsed: { format?: { duration?: string; format_name?: string }; streams?: { codec_type?: string }[] };
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof parsed;
  } catch {
    throw unreadableMedia();
  }
  // ffmpeg shows any text file as a picture of its characters (the tty format): not a recording.
  if (!parsed.format || parsed.format.format_name === 'tty') throw unreadableMedia();
  const seconds = Number(parsed.format.duration);
  return { hasAudio: !!parsed.streams?.some((s) => s.codec_type === 'audio'), seconds: Number.isFinite(seconds) ? seconds : null };
}

/**
 * Decode the first audio track of `file` to 16 kHz mono samples. Refuses (rejected_input, in words fit for
 * transcript_error) unreadable media, media without an audio track, and more than `maxSeconds` of audio.
 */
export async function decodeAudio(file: string, options: { maxSeconds: number; signal?: AbortSignal }): Promise<DecodedAudio> {
  const { hasAudio, seconds } = await probe(file, options.signal);
  if (!hasAudio) throw noAudioTrack();
  if (seconds !== null && seconds > options.maxSeconds + 1) throw tooLong(seconds, options.maxSeconds);
  // Containers that state no duration (MediaRecorder's WebM) are capped while decoding.
  const limitBytes = Math.ceil((options.maxSeconds + 1) * SAMPLE_RATE) * 4;
  const args = ['-v', 'error', '-nostdin', '-i', file, '-map', '0:a:0', '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1'];
  const { code, chunks, bytes, overLimit } = await collect(ffmpegPath(), args, { signal: options.signal, timeoutMs: 10 * 60_000, limitBytes });
  if (options.signal?.aborted) throw new ProviderError('failed', PROVIDER, 'local transcription was cancelled');
  if (overLimit) throw tooLong(null, options.maxSeconds);
  if (code !== 0 || bytes < 4) throw unreadableMedia();
  const samples = new Float32Array(Math.floor(bytes / 4));
  const view = new Uint8Array(samples.buffer);
  let at = 0;
  for (const chunk of chunks) {
    const take = Math.min(chunk.length, view.length - at);
    view.set(chunk.subarray(0, take), at);
    at += take;
  }
  return { samples, seconds: samples.length / SAMPLE_RATE };
}
