// Fault injection: the speech-to-text providers answering 500 or hanging, through the real adapters
// (the Google REST client and the Deepgram SDK, built from config as in production) pointed at local HTTP
// fakes, and the real recording.process job of the core queue. Properties: the primary failing falls back
// to stt_fallback; both failing leaves the job queued for a retry (attempts counted, backoff) and the
// recording pending, never stuck in processing; a hang ends at PROVIDER_TIMEOUT_MS the same way; once the
// providers answer the retried job transcribes; out of attempts the recording is failed with a plain message.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Providers } from '@story/providers';
import { signUp, type SignedUp, type TestContext } from '../test/helper';
import { buildTestAppWithProviders, makeTone, multipart } from '../test/conversations-factories';
import { createRecordingWorker } from '../workers/recording-jobs.worker';

type Mode = 'ok' | '500' | 'hang';

interface Fake {
  url: string;
  mode: Mode;
  calls: number;
  close(): Promise<void>;
}

/** A provider's HTTP endpoint: answers `ok` with `answer`, 500, or never (the socket stays open). */
async function fakeProvider(answer: unknown): Promise<Fake> {
  const hanging = new Set<ServerResponse>();
  const fake: Fake = { url: '', mode: 'ok', calls: 0, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      fake.calls++;
      if (fake.mode === 'hang') return void hanging.add(res);
      const status = fake.mode === '500' ? 500 : 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 500 ? { error: { code: 500, message: 'internal', status: 'INTERNAL' } } : answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return fake;
}

const GOOGLE_ANSWER = { results: [{ alternatives: [{ transcript: 'Grandma grew up by the sea', confidence: 0.9, words: [] }], languageCode: 'en-us' }], totalBilledTime: '2s' };
const DEEPGRAM_ANSWER = { metadata: { duration: 2 }, results: { channels: [{ alternatives: [{ transcript: 'grandma grew up by the sea', confidence: 0.8, words: [] }] }] } };

describe('fault: speech providers answering 500 or hanging (core-api recording.process)', () => {
  let google: Fake;
  let deepgram: Fake;
  let t: TestContext;
  let providers!: Providers;
  let user: SignedUp;
  let wav: Buffer;

  beforeAll(async () => {
    google = await fakeProvider(GOOGLE_ANSWER);
    deepgram = await fakeProvider(DEEPGRAM_ANSWER);
    t = await buildTestAppWithProviders((base) => ((providers = base), {}), {
      STT_PRIMARY: 'google',
      STT_FALLBACK: 'deepgram',
      GOOGLE_SPEECH_API_KEY: 'g-key',
      GOOGLE_CLOUD_PROJECT: 'fault-project',
      GOOGLE_SPEECH_ENDPOINT: google.url,
      DEEPGRAM_API_KEY: 'dg-key',
      DEEPGRAM_BASE_URL: deepgram.url,
      PROVIDER_TIMEOUT_MS: '1000',
    });
    user = await signUp(t.app);
    wav = await makeTone(2);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
    await deepgram.close();
  });

  const worker = () => createRecordingWorker({ sql: t.database.sql, storage: providers.storage, speech: providers.speech });

  async function uploadOne(): Promise<string> {
    const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    return res.json().recording.id as string;
  }
  const state = async (id: string) => {
    const [rec] = await t.database.sql`select transcript_status, transcript_source, transcript, transcript_error from recordings where id = ${id}`;
    const [job] = await t.database.sql`select status, attempts, last_error, run_at > now() as later from jobs where dedupe_key = ${`recording:${id}`}`;
    return { rec: rec!, job: job! };
  };

  it('primary 500: falls back to stt_fallback and the job succeeds', async () => {
    google.mode = '500';
    deepgram.mode = 'ok';
    const before = { google: google.calls, deepgram: deepgram.calls };
    const id = await uploadOne();
    await worker().runOnce();
    // The primary was really tried (with the adapter's retries) before the fallback answered.
    expect(google.calls).toBeGreaterThan(before.google);
    expect(deepgram.calls).toBe(before.deepgram + 1);
    const { rec, job } = await state(id);
    expect(rec).toMatchObject({ transcript_status: 'done', transcript_source: 'deepgram', transcript: 'grandma grew up by the sea' });
    expect(job).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it.each<[string, Mode]>([
    ['both answer 500', '500'],
    ['both hang past PROVIDER_TIMEOUT_MS', 'hang'],
  ])('%s: the job is queued for a retry, the recording pending (not processing); once they answer it transcribes', async (_label, mode) => {
    google.mode = mode;
    deepgram.mode = mode;
    const id = await uploadOne();
    const before = google.calls + deepgram.calls;
    const started = Date.now();
    await worker().runOnce();
    expect(google.calls + deepgram.calls).toBeGreaterThanOrEqual(before + 2);
    // A hang ends at the deadline (1 s per call, with the adapters' own retries), not never.
    expect(Date.now() - started).toBeLessThan(25_000);
    const failed = await state(id);
    expect(failed.job).toMatchObject({ status: 'queued', attempts: 1, later: true });
    expect(String(failed.job['last_error'])).not.toBe('');
    expect(failed.rec['transcript_status']).toBe('pending');
    expect(String(failed.rec['transcript_error'])).not.toMatch(/127\.0\.0\.1|ECONN|stack/);
    // The providers recover; the backoff is moved forward instead of waited out.
    google.mode = 'ok';
    deepgram.mode = 'ok';
    await t.database.sql`update jobs set run_at = now() where dedupe_key = ${`recording:${id}`}`;
    await worker().runOnce();
    const done = await state(id);
    expect(done.rec).toMatchObject({ transcript_status: 'done', transcript_source: 'google' });
    expect(done.job).toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 60_000);

  it('out of attempts: the recording is failed with a plain message and no row is left in processing', async () => {
    google.mode = '500';
    deepgram.mode = '500';
    const id = await uploadOne();
    await t.database.sql`update jobs set attempts = max_attempts - 1 where dedupe_key = ${`recording:${id}`}`;
    await worker().runOnce();
    const { rec, job } = await state(id);
    expect(job['status']).toBe('dead');
    expect(rec['transcript_status']).toBe('failed');
    expect(String(rec['transcript_error'])).not.toMatch(/127\.0\.0\.1|ECONN|stack|INTERNAL/);
    const stuck = await t.database.sql`select id from recordings where transcript_status = 'processing'`;
    expect(stuck).toEqual([]);
    const running = await t.database.sql`select id from jobs where status = 'running'`;
    expect(running).toEqual([]);
  });
});
