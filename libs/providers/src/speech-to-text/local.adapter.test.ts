// The local recogniser on real speech: a public-domain recording of a human speaker, and a family story
// spoken at test time by eSpeak NG (the WebAssembly build the project ships), each checked by word error
// rate against its known words; the upload containers; a 3-minute passage checked sentence by sentence
// across the cuts; silence; and every refusal. Each model loads once for the file (base for the word
// error rates of real and long speech, tiny for the rest).
import { writeFile, stat } from 'node:fs/promises';

import { closeSharedProcessSpawner } from '../process-spawner';
import { ProviderError } from '../provider-error';
import { createLocalSpeechToText, EnglishOnlyError, type LocalSpeechToText } from './local.adapter';
import { checkSentences, familyStory, familyStorySentences, JFK_SPEECH, wordErrorRate } from '@story/testing';
import { encode, ffmpeg, mediaDir, speak, type MediaDir } from './local/test/speech-media';
import { mediaFromBuffer, mediaFromFile, type Transcription } from './speech-to-text.port';

jest.setTimeout(240_000);

let base: LocalSpeechToText;
let tiny: LocalSpeechToText;
let media: MediaDir;

const fromFile = async (file: string) => mediaFromFile(file, (await stat(file)).size);
const transcribe = async (stt: LocalSpeechToText, file: string, options: { language?: string; preferredLanguage?: string } = {}): Promise<Transcription> =>
  stt.transcribe(await fromFile(file), { mimeType: 'application/octet-stream', ...options });

beforeAll(async () => {
  base = createLocalSpeechToText({ model: 'base' });
  tiny = createLocalSpeechToText({ model: 'tiny' });
  media = await mediaDir();
});

afterAll(async () => {
  await Promise.all([base.close(), tiny.close()]);
  await closeSharedProcessSpawner();
  await media.remove();
});

describe('local speech-to-text: recognition', () => {
  it('loads its model on the first transcription, not when it is created', async () => {
    const fresh = createLocalSpeechToText({ model: 'tiny' });
    expect(fresh.loaded).toBe(false);
    expect(fresh.model).toBe('moonshine-tiny');
    const result = await transcribe(fresh, JFK_SPEECH.file);
    expect(fresh.loaded).toBe(true);
    expect(result.text.length).toBeGreaterThan(20);
    await fresh.close();
  });

  it('writes down real human speech (JFK 1961, public domain) with the base model: word error rate at most 10%', async () => {
    const result = await transcribe(base, JFK_SPEECH.file);
    expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.1);
    expect(result).toMatchObject({ provider: 'local', model: 'moonshine-base', language: 'en', costUsd: 0 });
    expect(result.durationSeconds).toBeCloseTo(JFK_SPEECH.seconds, 0);
    expect(result.confidence).toBeGreaterThan(0.5);
    expect(result.confidence).toBeLessThanOrEqual(1);
    // One piece of speech: every word carries that piece's seconds.
    expect(result.segments).toEqual([{ start: 0, end: 11, text: result.text }]);
    expect(result.words!.map((w) => w.word).join(' ')).toBe(result.text);
    expect(result.words!.every((w) => w.start === 0 && w.end === 11)).toBe(true);
  });

  // mp4: a phone video, the speech beside a picture track.
  it.each(['webm', 'mp3', 'wav', 'm4a', 'mp4'] as const)('reads a %s upload', async (container) => {
    const file = await encode(JFK_SPEECH.file, container, media.file(`jfk.${container}`));
    const result = await transcribe(tiny, file);
    expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.15);
    expect(result.model).toBe('moonshine-tiny');
  });

  it('takes media held in memory as well as a file', async () => {
    const { readFile } = await import('node:fs/promises');
    const result = await tiny.transcribe(mediaFromBuffer(await readFile(JFK_SPEECH.file)), { mimeType: 'audio/wav' });
    expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.15);
  });

  it('a 3-minute story spoken by eSpeak NG: cut into pieces of at most 20 s at pauses, no sentence lost or heard twice, word error rate at most 12% (base)', async () => {
    const file = await speak(familyStory(), media.file('story.mp3'));
    const progress: number[] = [];
    const result = await base.transcribe(await fromFile(file), { mimeType: 'audio/mpeg', onProgress: (p) => void progress.push(p.doneSeconds) });
    expect(result.durationSeconds).toBeGreaterThan(170);
    expect(wordErrorRate(familyStory(), result.text)).toBeLessThanOrEqual(0.12);

    const segments = result.segments!;
    expect(segments.length).toBeGreaterThanOrEqual(9);
    for (const [i, s] of segments.entries()) {
      expect(s.end - s.start).toBeLessThanOrEqual(20.01);
      // Speech throughout: the pieces follow each other with no gap and no overlap.
      if (i > 0) expect(s.start).toBe(segments[i - 1]!.end);
    }
    expect(segments.at(-1)!.end).toBeCloseTo(result.durationSeconds, 1);
    // Progress after each piece, in order (a job's lease is extended with it).
    expect(progress).toEqual(segments.map((s) => s.end));

    const check = checkSentences(familyStorySentences(), result.text);
    // A sentence lost at a cut would score near 0; one heard twice would leave a long run of extra words.
    expect(Math.min(...check.recognised)).toBeGreaterThanOrEqual(0.5);
    expect(check.longestInsertion).toBeLessThanOrEqual(3);
    expect(result.text.split(/\s+/).length).toBeLessThanOrEqual(familyStory().split(/\s+/).length * 1.05);
  });
});

describe('local speech-to-text: silence and pauses', () => {
  it('silence, a steady hum and faint noise give an empty transcript, never invented words', async () => {
    await ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '12', media.file('silence.wav')]);
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=120:sample_rate=16000', '-af', 'volume=0.3', '-t', '12', media.file('hum.wav')]);
    await ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=r=16000:a=0.002:c=pink', '-t', '12', media.file('noise.wav')]);
    for (const name of ['silence.wav', 'hum.wav', 'noise.wav']) {
      const result = await transcribe(tiny, media.file(name));
      expect({ name, text: result.text, words: result.words, segments: result.segments }).toEqual({ name, text: '', words: [], segments: [] });
      expect(result.durationSeconds).toBeCloseTo(12, 0);
    }
  });

  it('speech after half a minute of silence keeps its own seconds', async () => {
    const file = media.file('late.wav');
    await ffmpeg(['-f', 'lavfi', '-t', '30', '-i', 'anullsrc=r=16000:cl=mono', '-i', JFK_SPEECH.file, '-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1', file]);
    const result = await transcribe(tiny, file);
    expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.15);
    const segments = result.segments!;
    expect(segments.length).toBeGreaterThanOrEqual(1);
    // The speech starts at 30 s: the piece holding it starts no earlier than the cut before it (at least 6 s in) and ends at 41 s.
    expect(segments[0]!.start).toBeGreaterThanOrEqual(6);
    expect(segments.at(-1)!.end).toBeCloseTo(41, 0);
    expect(result.words!.every((w) => w.start >= 6)).toBe(true);
  });
});

describe('local speech-to-text: refusals', () => {
  it('a language other than English, from the request or from the voice settings, is refused before any work, naming the setting that adds a cloud provider', async () => {
    const fresh = createLocalSpeechToText({ model: 'tiny' });
    for (const options of [{ language: 'fr' }, { language: 'auto', preferredLanguage: 'de' }, { preferredLanguage: 'es-MX' }]) {
      const err = await transcribe(fresh, JFK_SPEECH.file, options).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EnglishOnlyError);
      expect(err).toMatchObject({ kind: 'rejected_input', provider: 'local', retryable: false });
      expect((err as Error).message).toMatch(/understands English only/);
      expect((err as Error).message).toMatch(/STT_PRIMARY=google/);
      expect((err as EnglishOnlyError).languageFrom).toBe(options.language === 'fr' ? 'request' : 'settings');
    }
    // Never fed to the model.
    expect(fresh.loaded).toBe(false);
    await fresh.close();
  });

  it('the request language wins over the voice settings; English of any region passes', async () => {
    const result = await transcribe(tiny, JFK_SPEECH.file, { language: 'en-GB', preferredLanguage: 'de' });
    expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.15);
  });

  it('empty, corrupt and non-media files, video without sound and recordings over 30 minutes are refused with the reason; the next recording is transcribed', async () => {
    await writeFile(media.file('empty.webm'), Buffer.alloc(0));
    await writeFile(media.file('corrupt.mp3'), Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00'), Buffer.alloc(40_000, 0x5a)]));
    await writeFile(media.file('notes.txt'), 'We lived on Mill Street.\n'.repeat(200));
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '3', '-c:v', 'mpeg4', '-an', media.file('silent-video.mp4')]);
    // 30 minutes and 5 seconds of quiet noise as 8 kbit/s MP3: long, yet small.
    await ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=r=8000:a=0.01', '-t', '1805', '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '8k', media.file('long.mp3')]);

    const cases: [string, RegExp][] = [
      ['empty.webm', /file is empty/],
      ['corrupt.mp3', /could not read this media/],
      ['notes.txt', /could not read this media/],
      ['silent-video.mp4', /no audio track/],
      ['long.mp3', /30:05 long; the local speech recogniser transcribes at most 30 minutes/],
    ];
    for (const [name, message] of cases) {
      const err = await transcribe(tiny, media.file(name)).catch((e: unknown) => e);
      expect({ name, err }).toEqual({ name, err: expect.any(ProviderError) });
      expect({ name, kind: (err as ProviderError).kind, message: (err as Error).message }).toEqual({ name, kind: 'rejected_input', message: expect.stringMatching(message) });
    }
    const next = await transcribe(tiny, JFK_SPEECH.file);
    expect(wordErrorRate(JFK_SPEECH.text, next.text)).toBeLessThanOrEqual(0.15);
  });

  it('media that states no duration (a browser WebM) is cut off at the limit while decoding', async () => {
    const short = createLocalSpeechToText({ model: 'tiny', maxSeconds: 5 });
    const file = media.file('stream.webm');
    // Written to a pipe, like MediaRecorder: the container carries no duration.
    await ffmpeg(['-i', JFK_SPEECH.file, '-c:a', 'libopus', '-f', 'webm', '-live', '1', file]);
    const err = await transcribe(short, file).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'rejected_input', message: 'This recording is longer than 5 seconds; the local speech recogniser transcribes at most 5 seconds' });
    await short.close();
  });

  it('a progress callback that fails (a job that lost its lease) fails the transcription with its error', async () => {
    const lost = new Error('This worker no longer holds the job (its lease passed)');
    await expect(
      tiny.transcribe(await fromFile(JFK_SPEECH.file), {
        mimeType: 'audio/wav',
        onProgress: () => {
          throw lost;
        },
      }),
    ).rejects.toBe(lost);
  });

  it('a cancelled transcription stops with a cancellation, and the recogniser goes on serving', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(tiny.transcribe(await fromFile(JFK_SPEECH.file), { mimeType: 'audio/wav', signal: controller.signal })).rejects.toMatchObject({ provider: 'local', message: /cancelled/ });
    const next = await transcribe(tiny, JFK_SPEECH.file);
    expect(next.text).not.toBe('');
  });
});
