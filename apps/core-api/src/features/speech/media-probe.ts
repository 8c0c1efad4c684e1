// Duration of an uploaded turn from its bytes: written to a private temp file (probing a pipe misses
// durations stored at the end, like MP4's moov atom) and measured by the recordings' probe, which decodes
// when the container states no duration. The file is removed whatever happens.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeMedia } from '../recordings/media-probe';

/** Seconds of media in `media`, or null when neither ffprobe nor a decode can tell. */
export async function probeDurationSeconds(media: Buffer, signal?: AbortSignal): Promise<number | null> {
  const dir = await mkdtemp(join(tmpdir(), 'story-probe-'));
  try {
    const file = join(dir, 'media');
    await writeFile(file, media, { mode: 0o600 });
    return (await probeMedia(file, signal)).durationSeconds;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
