// The local synthesizer against real eSpeak NG (the system binary when installed, else the WebAssembly build
// from npm) and the ffmpeg shipped in npm: the MP3 it streams is checked with ffprobe (also from npm), and
// missing binaries are simulated with paths that do not exist.
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

import { ffprobePath } from '../media-binaries';
import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createLocalTextToSpeech, parseEspeakVoices } from './local.adapter';
import { createTextToSpeech } from './index';

const run = promisify(execFile);
const SENTENCE = "The summer of 1962 we drove to Maine in Grandpa's old Ford.";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tts-local-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function probe(file: string): Promise<{ format_name: string; duration: string }> {
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'format=format_name,duration', '-of', 'json', file]);
  return (JSON.parse(stdout) as { format: { format_name: string; duration: string } }).format;
}

async function firstBytes(file: string, count: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    await handle.read(buffer, 0, count, 0);
    return buffer;
  } finally {
    await handle.close();
  }
}

function expectProviderError(err: unknown, kind: string): void {
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as ProviderError).kind).toBe(kind);
  expect((err as ProviderError).provider).toBe('local');
}

describe('local text-to-speech (espeak-ng + ffmpeg)', () => {
  const tts = createLocalTextToSpeech();

  it('reports itself available when both binaries are installed', async () => {
    await expect(tts.available()).resolves.toBe(true);
  });

  it('streams a playable MP3 of the sentence', async () => {
    const synthesis = await tts.synthesize(SENTENCE);
    expect(synthesis).toMatchObject({ contentType: 'audio/mpeg', provider: 'local', voiceId: 'en-us', characters: SENTENCE.length, estimatedCostUsd: 0 });

    const file = join(dir, 'sentence.mp3');
    await pipeline(synthesis.audio, createWriteStream(file));

    const format = await probe(file);
    expect(format.format_name).toBe('mp3');
    const duration = Number(format.duration);
    expect(duration).toBeGreaterThan(1.5);
    expect(duration).toBeLessThan(15);

    const head = await firstBytes(file, 3);
    const id3 = head.toString('latin1') === 'ID3';
    const frameSync = head[0] === 0xff && (head[1] & 0xe0) === 0xe0;
    expect(id3 || frameSync).toBe(true);
  });

  it('speaks with another listed voice', async () => {
    const synthesis = await tts.synthesize('Hello from Scotland.', { voiceId: 'en-gb-scotland' });
    const file = join(dir, 'scotland.mp3');
    await pipeline(synthesis.audio, createWriteStream(file));
    expect((await probe(file)).format_name).toBe('mp3');
  });

  it('refuses empty, blank and over-long text before starting any process', async () => {
    await expect(tts.synthesize('')).rejects.toMatchObject({ kind: 'rejected_input' });
    await expect(tts.synthesize('   \n\t ')).rejects.toMatchObject({ kind: 'rejected_input' });
    await expect(tts.synthesize('a'.repeat(5001))).rejects.toMatchObject({ kind: 'rejected_input' });
  });

  it('refuses a voice it does not have and a non-MP3 format', async () => {
    const unknown = await tts.synthesize('Hello.', { voiceId: '--version' }).catch((e: unknown) => e);
    expectProviderError(unknown, 'not_found');
    await expect(tts.synthesize('Hello.', { outputFormat: 'pcm_16000' })).rejects.toMatchObject({ kind: 'rejected_input' });
  });

  it('lists several voices with English ones first', async () => {
    const voices = await tts.listVoices();
    expect(voices.length).toBeGreaterThan(5);
    expect(voices[0]).toEqual({ voice_id: 'en-us', name: 'English (America)', category: 'local', gender: 'male', accent: 'american', preview_url: null });
    expect(voices.some((v) => v.voice_id === 'en-gb' && v.gender === 'male')).toBe(true);
    expect(voices.some((v) => v.voice_id.startsWith('en') && v.gender === 'female')).toBe(true);
    expect(voices.some((v) => v.voice_id === 'de')).toBe(true);
    for (const voice of voices) {
      expect(voice.category).toBe('local');
      expect(voice.preview_url).toBeNull();
    }
    expect(new Set(voices.map((v) => v.voice_id)).size).toBe(voices.length);
  });

  it('stops both processes when the consumer destroys the stream', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `This is sentence number ${i} of a long story about the old farm.`).join(' ');
    const synthesis = await tts.synthesize(long);
    const closed = new Promise((resolve) => synthesis.audio.once('close', resolve));
    synthesis.audio.destroy();
    await closed;
    // Give the killed processes a moment to be reaped, then make sure none is left behind.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { stdout } = await run('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)]);
    expect(stdout).not.toMatch(/espeak-ng|ffmpeg/);
  });

  it('destroys the stream when aborted through the signal', async () => {
    const controller = new AbortController();
    const long = Array.from({ length: 60 }, (_, i) => `Sentence ${i} keeps the synthesizer busy for a while longer.`).join(' ');
    const synthesis = await tts.synthesize(long, { signal: controller.signal });
    const failure = new Promise((resolve) => synthesis.audio.once('error', resolve));
    controller.abort();
    expectProviderError(await failure, 'failed');
  });

  it('speaks and lists voices through the WebAssembly build of eSpeak NG (no espeak-ng binary needed)', async () => {
    const wasm = createLocalTextToSpeech({ espeakWasm: require.resolve('espeak-ng') });
    await expect(wasm.available()).resolves.toBe(true);
    const voices = await wasm.listVoices();
    expect(voices[0]?.voice_id).toBe('en-us');
    expect(voices.some((v) => v.voice_id === 'de')).toBe(true);
    const synthesis = await wasm.synthesize('-v Grandma kept bees behind the barn.', { voiceId: 'en-us+f3' });
    const file = join(dir, 'wasm.mp3');
    await pipeline(synthesis.audio, createWriteStream(file));
    const format = await probe(file);
    expect(format.format_name).toBe('mp3');
    expect(Number(format.duration)).toBeGreaterThan(1);
    await expect(wasm.synthesize('Hello.', { voiceId: 'xx-nowhere' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('reports a binary that fails its version check as unavailable', async () => {
    const broken = createLocalTextToSpeech({ ffmpegPath: 'false' });
    await expect(broken.available()).resolves.toBe(false);
    await expect(broken.synthesize(SENTENCE)).rejects.toMatchObject({ kind: 'unavailable' });
  });

  async function fakeFfmpeg(name: string, body: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\nif [ "$1" = "-version" ]; then echo fake; exit 0; fi\n${body}\n`, { mode: 0o755 });
    return path;
  }

  it('rejects with failed when the encoder exits non-zero before any audio', async () => {
    const ffmpegPath = await fakeFfmpeg('ffmpeg-dies', 'cat > /dev/null; echo "secret internals" >&2; exit 3');
    const err = await createLocalTextToSpeech({ ffmpegPath }).synthesize(SENTENCE).catch((e: unknown) => e);
    expectProviderError(err, 'failed');
    expect((err as Error).message).toBe('ffmpeg stopped with exit code 3');
  });

  it('destroys the stream with failed when the encoder breaks part-way', async () => {
    const ffmpegPath = await fakeFfmpeg('ffmpeg-breaks', 'printf "ID3partial-audio"; sleep 0.3; exit 4');
    const synthesis = await createLocalTextToSpeech({ ffmpegPath }).synthesize(SENTENCE);
    const chunks: Buffer[] = [];
    const err = await (async () => {
      for await (const chunk of synthesis.audio) chunks.push(chunk as Buffer);
    })().catch((e: unknown) => e);
    expectProviderError(err, 'failed');
    expect(Buffer.concat(chunks).toString()).toBe('ID3partial-audio');
  });

  it('times out when the synthesizer produces nothing', async () => {
    const ffmpegPath = await fakeFfmpeg('ffmpeg-hangs', 'exec sleep 5');
    const err = await createLocalTextToSpeech({ ffmpegPath, timeoutMs: 300 }).synthesize(SENTENCE).catch((e: unknown) => e);
    expectProviderError(err, 'timeout');
  });

  it('reports missing binaries as unavailable without crashing', async () => {
    const missing = createLocalTextToSpeech({ espeakPath: join(dir, 'no-such-espeak-ng'), ffmpegPath: join(dir, 'no-such-ffmpeg') });
    await expect(missing.available()).resolves.toBe(false);
    const err = await missing.synthesize(SENTENCE).catch((e: unknown) => e);
    expectProviderError(err, 'unavailable');
    expect((err as Error).message).toBe('espeak-ng/ffmpeg not installed');
    await expect(missing.listVoices()).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('parseEspeakVoices', () => {
  it('reads the columns, skipping mbrola voices, variants and repeated languages', () => {
    const output = [
      'Pty Language       Age/Gender VoiceName          File                 Other Languages',
      ' 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)',
      ' 3  en-uk           --/M      english-mb-en1     mb/mb-en1            (en-gb 3)(en 2)',
      ' 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)',
      ' 5  fr-fr           --/F      French_(France)    roa/fr               (fr 5)',
      ' 5  fr-fr           --/M      French_again       roa/fr2              ',
      ' 5  variant         --/M      Storm              !v/Storm             (en-us 5)',
      ' 5  eo              --/-      Esperanto          art/eo               ',
    ].join('\n');
    expect(parseEspeakVoices(output)).toEqual([
      { voice_id: 'en-gb', name: 'English (Great Britain)', category: 'local', gender: 'male', accent: 'Great Britain', preview_url: null },
      { voice_id: 'fr-fr', name: 'French (France)', category: 'local', gender: 'female', accent: 'France', preview_url: null },
      { voice_id: 'eo', name: 'Esperanto', category: 'local', gender: null, accent: null, preview_url: null },
    ]);
  });
});

describe('createTextToSpeech', () => {
  it('offers local only without an ElevenLabs key, and records each synthesis but not refused input', async () => {
    const usage = createMemoryUsageRecorder();
    const providers = createTextToSpeech({}, { usage });
    expect(providers.names).toEqual(['local']);
    expect(providers.default.provider).toBe('local');
    expect(providers.byName('elevenlabs')).toBeUndefined();
    expect(providers.byName('local')).toBe(providers.default);
    await expect(providers.default.available()).resolves.toBe(true);
    expect((await providers.default.listVoices())[0].voice_id).toBe('en-us');

    const synthesis = await providers.default.synthesize('Grandma kept bees.', { userId: 'user-1' });
    synthesis.audio.resume();
    await new Promise((resolve) => synthesis.audio.once('end', resolve));
    await expect(providers.default.synthesize(' ')).rejects.toMatchObject({ kind: 'rejected_input' });

    // Refused input (the blank text) is the caller's 400: it used nothing and leaves no usage row.
    expect(usage.entries).toEqual([
      expect.objectContaining({ provider: 'local', operation: 'tts', feature: 'tts', userId: 'user-1', characters: 18, costUsd: 0, success: true }),
    ]);
  });

  it('prefers ElevenLabs when a key is set and keeps local available', () => {
    const providers = createTextToSpeech({ ELEVENLABS_API_KEY: 'xi-test' }, { usage: createMemoryUsageRecorder() });
    expect(providers.names).toEqual(['elevenlabs', 'local']);
    expect(providers.default.provider).toBe('elevenlabs');
    expect(providers.byName('local')?.provider).toBe('local');
    expect(providers.byName('polly')).toBeUndefined();
  });
});
