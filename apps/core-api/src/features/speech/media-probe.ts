// Media duration from the bytes, with Debian's ffprobe (ffmpeg when the container does not say, as
// MediaRecorder's WebM does not). The bytes go to a private temp file: probing a pipe misses durations
// that sit at the end of the file (MP4's moov atom), and the file is removed whatever happens.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROBE_TIMEOUT_MS = 60_000;
const OUTPUT_LIMIT = 64 * 1024;

function run(command: string, args: string[], signal?: AbortSignal): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const done = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ code, stdout });
    };
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const onAbort = () => child.kill('SIGKILL');
    const timer = setTimeout(onAbort, PROBE_TIMEOUT_MS);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      // ffmpeg's -progress output grows with the media; only its tail matters.
      stdout = (stdout + chunk).slice(-OUTPUT_LIMIT);
    });
    child.on('error', () => done(null));
    child.on('close', (code) => done(code));
  });
}

/** Seconds of media in `media`, or null when neither ffprobe nor a decode can tell. */
export async function probeDurationSeconds(media: Buffer, signal?: AbortSignal): Promise<number | null> {
  const dir = await mkdtemp(join(tmpdir(), 'story-probe-'));
  const file = join(dir, 'media');
  try {
    await writeFile(file, media, { mode: 0o600 });
    const probe = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', '-i', file], signal);
    const probed = Number.parseFloat(probe.stdout.trim());
    if (probe.code === 0 && Number.isFinite(probed) && probed >= 0) return probed;
    if (signal?.aborted) return null;
    // No duration in the container: decode it and read how far ffmpeg got.
    const decode = await run('ffmpeg', ['-v', 'error', '-nostats', '-i', file, '-f', 'null', '-progress', 'pipe:1', '-'], signal);
    if (decode.code !== 0) return null;
    const times = [...decode.stdout.matchAll(/^out_time_us=(\d+)$/gm)];
    const last = times.at(-1);
    return last ? Number(last[1]) / 1e6 : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
