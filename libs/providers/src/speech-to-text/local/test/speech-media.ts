// Speech media for the local recogniser's tests: sentences spoken by eSpeak NG (the WebAssembly build the
// project ships, through the local text-to-speech adapter) and any recording re-encoded with the project's
// ffmpeg into the containers users upload (webm, mp3, wav, m4a, phone video).
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

import { ffmpegPath } from '../../../media-binaries';
import { createLocalTextToSpeech } from '../../../text-to-speech/local.adapter';

const exec = promisify(execFile);

export interface MediaDir {
  dir: string;
  file(name: string): string;
  remove(): Promise<void>;
}

export async function mediaDir(): Promise<MediaDir> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stt-media-'));
  return { dir, file: (name) => path.join(dir, name), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** `text` spoken by eSpeak NG, as MP3 written to `out`. */
export async function speak(text: string, out: string, voiceId = 'en-us'): Promise<string> {
  const tts = createLocalTextToSpeech({ timeoutMs: 120_000 });
  const synthesis = await tts.synthesize(text, { voiceId });
  await pipeline(synthesis.audio, createWriteStream(out));
  return out;
}

/** ffmpeg arguments for each container a recording arrives in. */
export const CONTAINERS = {
  webm: ['-vn', '-ac', '1', '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm'],
  mp3: ['-vn', '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '32k', '-f', 'mp3'],
  wav: ['-vn', '-ac', '1', '-ar', '22050', '-c:a', 'pcm_s16le', '-f', 'wav'],
  m4a: ['-vn', '-ac', '1', '-c:a', 'aac', '-b:a', '48k', '-f', 'ipod'],
  // Phone video: a picture track beside the speech, in MP4.
  mp4: ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-map', '1:v', '-map', '0:a', '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', '-b:a', '48k', '-f', 'mp4'],
} as const;

/** Re-encode `input` into one of the upload containers. */
export async function encode(input: string, container: keyof typeof CONTAINERS, out: string): Promise<string> {
  await exec(ffmpegPath(), ['-v', 'error', '-y', '-i', input, ...CONTAINERS[container], out]);
  return out;
}

/** Run ffmpeg with these arguments (lavfi sources: silence, noise, video without sound). */
export async function ffmpeg(args: string[]): Promise<void> {
  await exec(ffmpegPath(), ['-v', 'error', '-y', ...args], { maxBuffer: 16 * 1024 * 1024 });
}
