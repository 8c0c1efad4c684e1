// The inference thread on its own: closing it mid-transcription (a service shutting down) cancels the call in
// flight after its current piece, which rejects rather than answering with pieces missing, and does not take
// the process down; the next call starts a new thread that works.
import { JFK_SPEECH } from '@story/testing';
import { closeSharedProcessSpawner } from '../../process-spawner';
import { decodeAudio } from './decode-audio';
import { moonshineFiles } from './model-files';
import { createMoonshineThread, type RecognisedPiece } from './moonshine-thread';

jest.setTimeout(120_000);

afterAll(() => closeSharedProcessSpawner());

const jfk = async () => (await decodeAudio(JFK_SPEECH.file, { maxSeconds: 60 })).samples;

it('a thread closed mid-transcription rejects the call in flight; the next call gets a new thread and its words', async () => {
  const thread = createMoonshineThread({ files: moonshineFiles('tiny'), threads: 1 });
  const samples = await jfk();
  // Many pieces, so the first call is still running when the thread is stopped.
  const pieces = Array.from({ length: 40 }, () => ({ start: 0, end: samples.length }));
  const heard: RecognisedPiece[] = [];
  const first = thread.recognise(samples, pieces, (p) => {
    heard.push(p);
    if (heard.length === 1) void thread.close();
  });
  await expect(first).rejects.toThrow(/cancelled/);
  expect(heard.length).toBeLessThan(40);

  const again: RecognisedPiece[] = [];
  const fresh = await jfk();
  await thread.recognise(fresh, [{ start: 0, end: fresh.length }], (p) => again.push(p));
  expect(again).toHaveLength(1);
  expect(again[0]!.text).toMatch(/fellow Americans/i);
  expect(again[0]!.truncated).toBe(false);
  await thread.close();
});
