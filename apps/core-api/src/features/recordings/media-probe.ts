// What an uploaded file really is, how long it plays and what its waveform looks like. The type comes from
// the bytes (file-type), never only from what the client declared; duration and peaks come from ffprobe/ffmpeg
// (the builds shipped in npm, or FFPROBE_PATH/FFMPEG_PATH: @story/providers media-binaries) reading a file on
// disk (MP4 and M4A keep their index at the end, which a pipe cannot seek to).
import FileType from 'file-type';
import { isMediaType } from '@story/http';
import { ffmpegPath, ffprobePath, sharedProcessSpawner } from '@story/providers';

export type MediaKind = 'audio' | 'video';

export interface DetectedMedia {
  /** The stored Content-Type: the declared type when it agrees with the bytes, else the detected one. */
  mimeType: string;
  extension: string;
  mediaType: MediaKind;
}

/** Containers accepted for recordings (spec 000: webm, mp3, wav, m4a, ogg; video/* passed through). */
const AUDIO_CONTAINERS: Record<string, string> = { webm: 'audio/webm', mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4', mp4: 'audio/mp4', ogg: 'audio/ogg', opus: 'audio/ogg', oga: 'audio/ogg', flac: 'audio/flac', aac: 'audio/aac' };
const VIDEO_CONTAINERS = new Set(['mp4', 'mov', 'webm', 'mkv', 'm4v', '3gp', '3g2', 'avi', 'ogv', 'ogg']);

/** Bytes file-type needs to recognise every container above. */
export const SNIFF_BYTES = 4100;

const bare = (mime: string | undefined) => (mime ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Decide the media type from the first bytes. Returns null when the bytes are not an accepted audio or video
 * container. A declared video/* type is honoured when the container can carry video (phone video is passed
 * through unchanged); otherwise the bytes decide.
 */
export async function detectMedia(head: Buffer, declared?: string): Promise<DetectedMedia | null> {
  const found = await FileType.fromBuffer(head);
  if (!found) return null;
  const ext = found.ext as string;
  // Only a well-formed declared type is ever kept as the stored Content-Type; anything else is ignored.
  if (declared !== undefined && !isMediaType(declared.trim())) declared = undefined;
  const declaredBare = bare(declared);
  const canBeVideo = VIDEO_CONTAINERS.has(ext) || found.mime.startsWith('video/');
  if (canBeVideo && (declaredBare.startsWith('video/') || (!declaredBare.startsWith('audio/') && found.mime.startsWith('video/') && ext !== 'webm' && ext !== 'ogg'))) {
    // Keep the client's exact video type (codecs included) when it is a video type; QuickTime stays QuickTime.
    return { mimeType: declaredBare.startsWith('video/') ? declared!.trim() : found.mime, extension: ext === 'qt' ? 'mov' : ext, mediaType: 'video' };
  }
  const audioMime = AUDIO_CONTAINERS[ext];
  if (!audioMime && !found.mime.startsWith('audio/')) return null;
  const mimeType = declaredBare.startsWith('audio/') ? declared!.trim() : (audioMime ?? found.mime);
  return { mimeType, extension: ext === 'mp4' ? 'm4a' : ext, mediaType: 'audio' };
}

export interface ProbeResult {
  durationSeconds: number | null;
  hasVideo: boolean;
}

const OUTPUT_LIMIT = 64 * 1024;

/**
 * Run a command; stdout goes to `onStdout` when given, else its tail (64 KB) is returned. Killed on timeout or
 * abort. Spawned by the shared process spawner (@story/providers), so a large heap here does not stall the
 * event loop while the program forks.
 */
async function run(cmd: string, args: string[], options: { onStdout?: (chunk: Buffer) => void; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<{ code: number; stdout: string }> {
  let out = '';
  const onStdout = options.onStdout ?? ((chunk: Buffer) => (out = (out + chunk.toString()).slice(-OUTPUT_LIMIT)));
  const { code } = await sharedProcessSpawner().run(cmd, args, { onStdout, timeoutMs: options.timeoutMs, signal: options.signal });
  return { code, stdout: out };
}

/** Decode the whole file and read how far ffmpeg got: for containers that state no duration (MediaRecorder's WebM). */
async function durationByDecoding(file: string, signal?: AbortSignal): Promise<number | null> {
  const { code, stdout } = await run(ffmpegPath(), ['-v', 'error', '-nostats', '-i', file, '-f', 'null', '-progress', 'pipe:1', '-'], { signal });
  const last = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].at(-1);
  return code === 0 && last ? Number(last[1]) / 1e6 : null;
}

/** Duration and whether a video stream exists; null duration when ffprobe cannot tell (or is not installed). */
export async function probeMedia(file: string, signal?: AbortSignal): Promise<ProbeResult> {
  try {
    const { code, stdout } = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', file], { signal });
    if (code !== 0) return { durationSeconds: null, hasVideo: false };
    const parsed = JSON.parse(stdout) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
    const duration = Number(parsed.format?.duration);
    const hasVideo = !!parsed.streams?.some((s) => s.codec_type === 'video');
    if (Number.isFinite(duration) && duration >= 0) return { durationSeconds: duration, hasVideo };
    return { durationSeconds: signal?.aborted ? null : await durationByDecoding(file, signal), hasVideo };
  } catch {
    return { durationSeconds: null, hasVideo: false };
  }
}

export const WAVEFORM_PEAKS = 100;
const SAMPLE_RATE = 8000;
/** 50 ms windows: fine enough for any length, small enough to keep (2 hours = 144,000 numbers). */
const WINDOW = SAMPLE_RATE / 20;

/** Reduce window maxima to exactly `peaks` numbers in 0..1 (max of each group), rounded to 3 places. */
export function reducePeaks(windows: number[], peaks = WAVEFORM_PEAKS): number[] {
  if (windows.length === 0) return [];
  const out: number[] = [];
  for (let i = 0; i < peaks; i++) {
    const from = Math.floor((i * windows.length) / peaks);
    const to = Math.max(from + 1, Math.floor(((i + 1) * windows.length) / peaks));
    let max = 0;
    for (let j = from; j < to && j < windows.length; j++) max = Math.max(max, windows[j]!);
    out.push(Math.round(Math.min(1, max / 32768) * 1000) / 1000);
  }
  return out;
}

/**
 * A fixed number of peak amplitudes: ffmpeg decodes to 8 kHz mono 16-bit PCM on stdout, read as it comes
 * (never held whole), with the maximum of each 50 ms window kept. Null when there is no audio to decode.
 */
export async function computeWaveform(file: string, peaks = WAVEFORM_PEAKS): Promise<number[] | null> {
  return (await decodeWaveform(file, peaks)).waveform;
}

/**
 * The waveform and the length of the decoded audio (samples / rate), from one ffmpeg run: what an upload
 * needs before its row is written, without a second process for ffprobe. Both null when nothing decodes.
 */
export async function decodeWaveform(file: string, peaks = WAVEFORM_PEAKS): Promise<{ waveform: number[] | null; durationSeconds: number | null }> {
  let samples = 0;
  const windows: number[] = [];
  let current = 0;
  let inWindow = 0;
  let carry: Buffer | null = null;
  try {
    const { code } = await run(ffmpegPath(), ['-v', 'error', '-i', file, '-vn', '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 's16le', '-'], { onStdout: (chunk) => {
      const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const usable = buf.length - (buf.length % 2);
      samples += usable / 2;
      // A typed view of the little-endian samples (copied when the chunk starts at an odd offset): an upload
      // waits for this loop, and it is several times faster than readInt16LE per sample.
      const aligned = buf.byteOffset % 2 === 0 ? buf : Buffer.from(buf.subarray(0, usable));
      const pcm = new Int16Array(aligned.buffer, aligned.byteOffset, usable / 2);
      for (let i = 0; i < pcm.length; i++) {
        const v = Math.abs(pcm[i] as number);
        if (v > current) current = v;
        if (++inWindow === WINDOW) {
          windows.push(current);
          current = 0;
          inWindow = 0;
        }
      }
      carry = usable < buf.length ? buf.subarray(usable) : null;
    } });
    if (inWindow > 0) windows.push(current);
    if (code !== 0 || windows.length === 0) return { waveform: null, durationSeconds: null };
    return { waveform: reducePeaks(windows, peaks), durationSeconds: samples / SAMPLE_RATE };
  } catch {
    return { waveform: null, durationSeconds: null };
  }
}
