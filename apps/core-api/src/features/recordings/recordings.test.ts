// POST/GET/DELETE /api/recordings, media streaming and the processing job, against real PostgreSQL, real
// local storage and real ffmpeg-made media.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createDeepgramSpeechToText, createMemoryUsageRecorder, createSpeechRecognition, ffmpegPath, ProviderError, type ObjectStorage } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders, fakeSpeech, makeTone, multipart, type Part } from '../../test/conversations-factories';
import { createRecordingWorker } from '../../workers/recording-jobs.worker';

function upload(t: TestContext, user: SignedUp, parts: Part[]) {
  const body = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload });
}

const count = async (t: TestContext, table = 'recordings') => Number((await t.database.sql`select count(*)::int as n from ${t.database.sql(table)}`)[0]!['n']);

async function storedObjects(storage: ObjectStorage, userId: string) {
  return (await storage.list(`recordings/${userId}`)).objects;
}

describe('recordings', () => {
  let t: TestContext;
  let storage: ObjectStorage;
  let user: SignedUp;
  let wav: Buffer;

  beforeAll(async () => {
    t = await buildTestAppWithProviders((base) => ((storage = base.storage), {}));
    user = await signUp(t.app);
    wav = await makeTone(2);
  });
  afterAll(() => t.close());

  const worker = () => createRecordingWorker({ sql: t.database.sql, storage, speech: { available: false, providers: [], transcribe: async () => { throw new Error('unused'); } } });

  it('saves an upload with its waveform and duration computed on upload (spec 000): in the answer and every read, before any job runs; the job then transcribes', async () => {
    const res = await upload(t, user, [
      { name: 'title', value: 'Grandma on the farm' },
      { name: 'transcript', value: 'we had three cows' },
      { name: 'trial_session_id', value: 'trial-abc123' },
      { name: 'audio', value: wav, filename: 'farm.wav', contentType: 'audio/wav' },
    ]);
    expect(res.statusCode).toBe(201);
    const { recording } = res.json();
    expect(recording).toMatchObject({ title: 'Grandma on the farm', transcript: 'we had three cows', transcript_status: 'pending', transcript_source: 'browser', media_type: 'audio', status: 'completed' });
    expect(recording.audio_url).toBe(`/api/recordings/${recording.id}/audio`);
    expect(recording.trial_session_id).toBe('trial-abc123');
    // The zone-less created_at is UTC, whatever the server's time zone.
    expect(Math.abs(Date.parse(recording.created_at) - Date.now())).toBeLessThan(10 * 60_000);
    const [row] = await t.database.sql`select storage_key, original_file_size_bytes::int as size from recordings where id = ${recording.id}`;
    const stored = await storage.get(row!['storage_key']);
    stored.body.resume();
    expect(stored.size).toBe(wav.length);
    expect(row!['size']).toBe(wav.length);
    const [job] = await t.database.sql`select kind, status, payload from jobs where dedupe_key = ${`recording:${recording.id}`}`;
    expect(job).toMatchObject({ kind: 'recording.process', status: 'queued' });
    // Generated on upload: the answer carries it, and so does the waveform route right away.
    expect(recording.duration_seconds).toBe(2);
    expect(recording.waveform_data).toHaveLength(100);
    expect(Math.max(...recording.waveform_data)).toBeGreaterThan(0.1);
    const early = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording.id}/waveform`, headers: user.headers })).json();
    expect(early).toEqual({ waveform: recording.waveform_data, duration: 2 });
    // The upload's temp copy is gone.
    expect(readdirSync(tmpdir()).filter((d) => d.startsWith('rec-upload-'))).toEqual([]);

    expect(await worker().runOnce()).toBeGreaterThanOrEqual(1);
    const after = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording.id}`, headers: user.headers })).json().recording;
    expect(after.duration_seconds).toBe(2);
    expect(after.waveform_data).toEqual(recording.waveform_data);
    // No speech provider here: failed, saying so, and the caption stays the transcript.
    expect(after).toMatchObject({ transcript_status: 'failed', transcript: 'we had three cows', transcript_source: 'browser' });
    expect(after.transcript_error).toMatch(/not configured/);
    const wave = (await t.app.inject({ method: 'GET', url: `/api/recordings/${recording.id}/waveform`, headers: user.headers })).json();
    expect(wave).toEqual({ waveform: after.waveform_data, duration: 2 });
  });

  it('checks the type from the bytes: a text file declared as audio is refused and nothing is stored', async () => {
    const before = await count(t);
    const objects = (await storedObjects(storage, user.userId)).length;
    const res = await upload(t, user, [{ name: 'audio', value: Buffer.from('hello, this is not audio at all'.repeat(20)), filename: 'a.mp3', contentType: 'audio/mpeg' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not audio or video/);
    expect(await count(t)).toBe(before);
    expect((await storedObjects(storage, user.userId)).length).toBe(objects);
  });

  it.each([
    ['no file', [{ name: 'title', value: 'x' }], /audio file is required/],
    ['an empty file', [{ name: 'audio', value: Buffer.alloc(0), filename: 'a.wav', contentType: 'audio/wav' }], /empty/],
    ['a title over 200 characters', [{ name: 'title', value: 'x'.repeat(201) }], /title/],
    ['a negative duration', [{ name: 'duration', value: '-3' }], /duration/],
    ['a malformed campaignId', [{ name: 'campaignId', value: 'nope' }], /campaignId/],
  ])('refuses %s with 400 and writes nothing (no row, no stored object)', async (_label, parts, message) => {
    const before = await count(t);
    const objects = (await storedObjects(storage, user.userId)).length;
    const withFile = (parts as Part[]).some((p) => p.name === 'audio') ? (parts as Part[]) : [...(parts as Part[]), ...(String(_label) === 'no file' ? [] : [{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }])];
    const res = await upload(t, user, withFile);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect(await count(t)).toBe(before);
    expect((await storedObjects(storage, user.userId)).length).toBe(objects);
  });

  it("refuses another user's campaignId with 400", async () => {
    const other = await signUp(t.app);
    const campaign = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: other.headers, payload: { title: 'Theirs' } })).json();
    const res = await upload(t, user, [{ name: 'campaignId', value: campaign.id }, { name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/campaignId/);
  });

  it('refuses a body over 8 MB with 413 pointing at direct upload', async () => {
    const big = Buffer.concat([wav, Buffer.alloc(9 * 1024 * 1024)]);
    const res = await upload(t, user, [{ name: 'audio', value: big, filename: 'big.wav', contentType: 'audio/wav' }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/direct upload/);
  });

  it('passes video through with media_type video', async () => {
    const { stdout } = await import('node:child_process').then(({ execFileSync }) => ({
      stdout: execFileSync(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=5:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', '-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov', 'pipe:1'], { maxBuffer: 32 * 1024 * 1024 }),
    }));
    const res = await upload(t, user, [{ name: 'audio', value: stdout, filename: 'clip.mp4', contentType: 'video/mp4' }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().recording).toMatchObject({ media_type: 'video', mime_type: 'video/mp4' });
  });

  it('streams media with Range: 206 and Content-Range, 416 for a range past the end', async () => {
    const created = (await upload(t, user, [{ name: 'audio', value: wav, filename: 'r.wav', contentType: 'audio/wav' }])).json().recording;
    const whole = await t.app.inject({ method: 'GET', url: `/api/recordings/${created.id}/audio`, headers: user.headers });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(wav)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await t.app.inject({ method: 'GET', url: `/api/recordings/${created.id}/audio`, headers: { ...user.headers, range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${wav.length}`);
    expect(part.rawPayload.equals(wav.subarray(10, 20))).toBe(true);
    const bad = await t.app.inject({ method: 'GET', url: `/api/recordings/${created.id}/audio`, headers: { ...user.headers, range: `bytes=${wav.length + 10}-` } });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${wav.length}`);
  });

  it('stores a multi-MiB upload byte for byte and serves a range from its middle exactly', async () => {
    // Over the parser's 1 MiB buffers and the storage writer's 1 MiB batches; a pattern with no power-of-two period.
    const size = 3 * 1024 * 1024 + 4321;
    const big = Buffer.alloc(size);
    for (let i = 44; i < size; i++) big[i] = (i * 7 + (i >> 9)) % 251;
    wav.copy(big, 0, 0, 44);
    big.writeUInt32LE(size - 8, 4);
    big.writeUInt32LE(size - 44, 40);
    const res = await upload(t, user, [{ name: 'audio', value: big, filename: 'big.wav', contentType: 'audio/wav' }]);
    expect(res.statusCode).toBe(201);
    const { id } = res.json().recording;
    const [row] = await t.database.sql`select storage_key, original_file_size_bytes::int as size from recordings where id = ${id}`;
    expect(row!['size']).toBe(size);
    const mid = Math.floor(size / 2) + 3;
    const open = await t.app.inject({ method: 'GET', url: `/api/recordings/${id}/audio`, headers: { ...user.headers, range: `bytes=${mid}-` } });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes ${mid}-${size - 1}/${size}`);
    expect(open.headers['content-length']).toBe(String(size - mid));
    expect(open.rawPayload.equals(big.subarray(mid))).toBe(true);
    const [start, end] = [1024 * 1024 - 5, 2 * 1024 * 1024 + 9];
    const closed = await t.app.inject({ method: 'GET', url: `/api/recordings/${id}/audio`, headers: { ...user.headers, range: `bytes=${start}-${end}` } });
    expect(closed.statusCode).toBe(206);
    expect(closed.rawPayload.equals(big.subarray(start, end + 1))).toBe(true);
    const whole = await t.app.inject({ method: 'GET', url: `/api/recordings/${id}/audio`, headers: user.headers });
    expect(whole.rawPayload.equals(big)).toBe(true);
  });

  it("hides a recording from anyone else (404) and lists, searches and tags only the caller's own", async () => {
    const created = (await upload(t, user, [{ name: 'title', value: 'Wedding in Napoli' }, { name: 'tags', value: 'Wedding, Italy' }, { name: 'audio', value: wav, filename: 'w.wav', contentType: 'audio/wav' }])).json().recording;
    const stranger = await signUp(t.app);
    for (const url of [`/api/recordings/${created.id}`, `/api/recordings/${created.id}/audio`, `/api/recordings/${created.id}/waveform`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: stranger.headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Napoli');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/recordings', headers: stranger.headers })).json().recordings).toEqual([]);
    const found = (await t.app.inject({ method: 'GET', url: '/api/recordings?search=napoli', headers: user.headers })).json().recordings;
    expect(found.map((r: { id: string }) => r.id)).toEqual([created.id]);
    const byTag = (await t.app.inject({ method: 'GET', url: '/api/recordings?tags=italy,nothing', headers: user.headers })).json().recordings;
    expect(byTag.map((r: { id: string }) => r.id)).toEqual([created.id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/recordings/tags', headers: user.headers })).json().tags).toEqual(expect.arrayContaining(['wedding', 'italy']));
    const stats = (await t.app.inject({ method: 'GET', url: '/api/recordings/stats', headers: user.headers })).json().stats;
    expect(stats.totalRecordings).toBeGreaterThanOrEqual(3);
    expect((await t.app.inject({ method: 'GET', url: '/api/recordings?limit=0', headers: user.headers })).statusCode).toBe(400);
  });

  it('lets a family member in a shared group see a recording; removal revokes it at once', async () => {
    const created = (await upload(t, user, [{ name: 'audio', value: wav, filename: 'f.wav', contentType: 'audio/wav' }])).json().recording;
    const cousin = await signUp(t.app);
    const [group] = await t.database.sql`insert into family_groups (created_by, name) values (${user.userId}, 'Family') returning id`;
    await t.database.sql`insert into family_members (family_group_id, user_id, role) values (${group!['id']}, ${user.userId}, 'owner'), (${group!['id']}, ${cousin.userId}, 'family_viewer')`;
    expect((await t.app.inject({ method: 'GET', url: `/api/recordings/${created.id}`, headers: cousin.headers })).statusCode).toBe(200);
    // A viewer may listen but not delete.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/recordings?id=${created.id}`, headers: cousin.headers })).statusCode).toBe(403);
    await t.database.sql`update family_members set status = 'removed', removed_at = now() where user_id = ${cousin.userId}`;
    expect((await t.app.inject({ method: 'GET', url: `/api/recordings/${created.id}`, headers: cousin.headers })).statusCode).toBe(404);
  });

  it('deletes the row and the stored media', async () => {
    const created = (await upload(t, user, [{ name: 'audio', value: wav, filename: 'd.wav', contentType: 'audio/wav' }])).json().recording;
    const [row] = await t.database.sql`select storage_key from recordings where id = ${created.id}`;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/recordings?id=${created.id}`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(await t.database.sql`select 1 from recordings where id = ${created.id}`).toHaveLength(0);
    expect(await storage.head(row!['storage_key'])).toEqual({ exists: false });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/recordings?id=${created.id}`, headers: user.headers })).statusCode).toBe(404);
  });

  it('enforces the tier voice minutes with a 403 naming the limit and the tier that lifts it', async () => {
    // Each recording is within the 30-minute voice limit; together they pass the free plan's 30 minutes.
    const first = await upload(t, user, [{ name: 'duration', value: String(20 * 60) }, { name: 'audio', value: wav, filename: 'long.wav', contentType: 'audio/wav' }]);
    expect(first.statusCode).toBe(201);
    const res = await upload(t, user, [{ name: 'duration', value: String(20 * 60) }, { name: 'audio', value: wav, filename: 'long.wav', contentType: 'audio/wav' }]);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/free plan allows 30 voice minutes.*starter plan allows 180/);
  });
});

describe('recordings: storage failures', () => {
  it('answers 502 and writes no row when configured storage throws', async () => {
    const t = await buildTestAppWithProviders((base) => ({
      storage: { ...base.storage, put: async () => { throw new ProviderError('unavailable', 's3', 'store unreachable (ECONNREFUSED)'); } },
    }));
    try {
      const user = await signUp(t.app);
      const body = multipart([{ name: 'audio', value: await makeTone(1), filename: 'a.wav', contentType: 'audio/wav' }]);
      const res = await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(502);
      expect(res.body).not.toMatch(/ECONNREFUSED/);
      expect(await t.database.sql`select 1 from recordings`).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('answers 503 with status upload_failed and keeps an upload_failed row when storage is not configured', async () => {
    const t = await buildTestApp({ STORAGE_DRIVER: 'none' });
    try {
      const user = await signUp(t.app);
      const body = multipart([{ name: 'title', value: 'Lost?' }, { name: 'audio', value: await makeTone(1), filename: 'a.wav', contentType: 'audio/wav' }]);
      const res = await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'upload_failed' });
      const rows = await t.database.sql`select status, storage_key, title from recordings where user_id = ${user.userId}`;
      expect(rows).toEqual([{ status: 'upload_failed', storage_key: null, title: 'Lost?' }]);
    } finally {
      await t.close();
    }
  });

  it('transcribes through the chooser: transcript replaced, source is the provider, words kept; usage logged by the chooser', async () => {
    let storage!: ObjectStorage;
    const speech = fakeSpeech({ words: [{ word: 'We', start: 0.1, end: 0.3, confidence: 0.9 }] });
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), { speech }));
    try {
      const user = await signUp(t.app);
      const body = multipart([{ name: 'transcript', value: 'we lived on mill st' }, { name: 'audio', value: await makeTone(1), filename: 'a.wav', contentType: 'audio/wav' }]);
      const id = (await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload })).json().recording.id;
      await createRecordingWorker({ sql: t.database.sql, storage, speech }).runOnce();
      const [row] = await t.database.sql`select transcript, transcript_source, transcript_status, transcript_updated_at, transcript_words from recordings where id = ${id}`;
      expect(row).toMatchObject({ transcript: 'We lived on Mill Street in 1952.', transcript_source: 'google', transcript_status: 'done' });
      expect(String(row!['transcript_updated_at'])).toMatch(/^\d{4}-\d{2}-\d{2}/);
      expect(row!['transcript_words']).toEqual([{ word: 'We', start: 0.1, end: 0.3, confidence: 0.9 }]);
      expect(speech.calls[0]!.options).toMatchObject({ mimeType: 'audio/wav', userId: user.userId });

      // Retry after a failure: the route queues the job again.
      const retry = await t.app.inject({ method: 'POST', url: `/api/recordings/${id}/transcribe`, headers: user.headers });
      expect(retry.statusCode).toBe(202);
      expect(retry.json()).toMatchObject({ queued: true, recording: { transcript_status: 'pending' } });
      const again = await t.app.inject({ method: 'POST', url: `/api/recordings/${id}/transcribe`, headers: user.headers });
      expect(again.json()).toMatchObject({ queued: false, alreadyQueued: true });
    } finally {
      await t.close();
    }
  });

  it('retries a retryable provider failure (pending), fails for good after the last attempt, and reclaims a dead worker\'s job', async () => {
    let storage!: ObjectStorage;
    const speech = fakeSpeech({}, () => new ProviderError('timeout', 'google', 'Speech recognition timed out'));
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), { speech }));
    try {
      const user = await signUp(t.app);
      const body = multipart([{ name: 'audio', value: await makeTone(1), filename: 'a.wav', contentType: 'audio/wav' }]);
      const id = (await t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...user.headers, ...body.headers }, payload: body.payload })).json().recording.id;
      const w = createRecordingWorker({ sql: t.database.sql, storage, speech });
      await w.runOnce();
      let [row] = await t.database.sql`select transcript_status, transcript_error from recordings where id = ${id}`;
      expect(row).toMatchObject({ transcript_status: 'pending', transcript_error: 'Speech recognition timed out' });

      // A worker that died mid-job: its lease runs out and the next worker takes the job over.
      await t.database.sql`update jobs set status = 'running', locked_by = 'dead-worker', lease_expires_at = now() - interval '1 second', attempts = max_attempts where dedupe_key = ${`recording:${id}`}`;
      await t.database.sql`update recordings set transcript_status = 'processing' where id = ${id}`;
      await w.runOnce();
      [row] = await t.database.sql`select transcript_status, transcript_error from recordings where id = ${id}`;
      expect(row!['transcript_status']).toBe('failed');
      expect(row!['transcript_error']).toMatch(/stopped/);
      expect(await t.database.sql`select status from jobs where dedupe_key = ${`recording:${id}`}`).toEqual([{ status: 'dead' }]);
    } finally {
      await t.close();
    }
  });
});

// Spec 000 Limits (voice at most 30 minutes) and Recording to story 5 (transcription streams the stored
// media; per-provider caps).
describe('recordings: limits and streaming transcription', () => {
  const VOICE_LIMIT = 'A recording may be at most 30 minutes long (spec 000 Limits: voice at most 30 minutes)';

  /** 30 minutes and 5 seconds of quiet speech-band noise as 8 kbit/s MP3 (about 1.8 MB): long, yet small. */
  /**
   * 30 minutes and 5 seconds of silence as 4 kHz 8-bit mono WAV (7.2 MB, under the 8 MB multipart cap),
   * written byte by byte: nothing to encode, so the test stays fast on a loaded machine.
   */
  function longWav(seconds = 1805, rate = 4000): Buffer {
    const data = rate * seconds;
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + data, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16); // fmt chunk size
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // mono
    header.writeUInt32LE(rate, 24);
    header.writeUInt32LE(rate, 28); // byte rate: 1 byte per sample
    header.writeUInt16LE(1, 32); // block align
    header.writeUInt16LE(8, 34); // bits per sample
    header.write('data', 36);
    header.writeUInt32LE(data, 40);
    return Buffer.concat([header, Buffer.alloc(data, 128)]);
  }

  it('the multipart route refuses a duration over 30 minutes with 400 naming the limit, keeping nothing', async () => {
    let storage!: ObjectStorage;
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), {}));
    try {
      const user = await signUp(t.app);
      const res = await upload(t, user, [
        { name: 'audio', value: await makeTone(1), filename: 'a.wav', contentType: 'audio/wav' },
        { name: 'duration', value: String(30 * 60 + 1) },
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: `duration: ${VOICE_LIMIT}` });
      expect(await count(t)).toBe(0);
      expect(await storedObjects(storage, user.userId)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('the worker marks a recording probed over 30 minutes failed with the limit and does not transcribe it', async () => {
    let storage!: ObjectStorage;
    const speech = fakeSpeech();
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), { speech }));
    try {
      const user = await signUp(t.app);
      // The client says one minute; the probe finds more than thirty.
      const res = await upload(t, user, [{ name: 'duration', value: '60' }, { name: 'audio', value: longWav(), filename: 'long.wav', contentType: 'audio/wav' }]);
      expect(res.statusCode).toBe(201);
      const id = res.json().recording.id;
      await createRecordingWorker({ sql: t.database.sql, storage, speech }).runOnce();
      const [row] = await t.database.sql`select transcript_status, transcript_error, transcript from recordings where id = ${id}`;
      expect(row).toEqual({ transcript_status: 'failed', transcript_error: VOICE_LIMIT, transcript: null });
      expect(speech.calls).toHaveLength(0);
      const [job] = await t.database.sql`select status from jobs where dedupe_key = ${`recording:${id}`}`;
      expect(job!['status']).toBe('succeeded');
    } finally {
      await t.close();
    }
  }, 120_000);

  it('the worker hands speech-to-text a file to stream (a path and its size), never a Buffer', async () => {
    let storage!: ObjectStorage;
    const speech = fakeSpeech();
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), { speech }));
    try {
      const user = await signUp(t.app);
      const tone = await makeTone(2, 'mp3');
      const id = (await upload(t, user, [{ name: 'audio', value: tone, filename: 'a.mp3', contentType: 'audio/mpeg' }])).json().recording.id;
      await createRecordingWorker({ sql: t.database.sql, storage, speech }).runOnce();
      expect(speech.calls).toHaveLength(1);
      const [call] = speech.calls;
      expect(call).toMatchObject({ buffer: false, bytes: tone.length, streamed: tone.length, path: expect.stringMatching(/rec-job-[^/]+\/media$/) });
      const [row] = await t.database.sql`select transcript_status from recordings where id = ${id}`;
      expect(row!['transcript_status']).toBe('done');
    } finally {
      await t.close();
    }
  });

  it("media over the provider's size cap fails at once with a transcript_error naming the cap, nothing sent", async () => {
    let storage!: ObjectStorage;
    // A real adapter with a small cap, pointed at a port nothing listens on: a request would fail differently.
    const deepgram = createDeepgramSpeechToText({ apiKey: 'dg-test', baseUrl: 'http://127.0.0.1:9', maxBytes: 4096, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    const usage = createMemoryUsageRecorder();
    const speech = createSpeechRecognition({ fallback: deepgram, usage });
    const t = await buildTestAppWithProviders((base) => ((storage = base.storage), { speech }));
    try {
      const user = await signUp(t.app);
      const wav = await makeTone(1);
      expect(wav.length).toBeGreaterThan(4096);
      const id = (await upload(t, user, [{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }])).json().recording.id;
      await createRecordingWorker({ sql: t.database.sql, storage, speech }).runOnce();
      const [row] = await t.database.sql`select transcript_status, transcript_error from recordings where id = ${id}`;
      expect(row!['transcript_status']).toBe('failed');
      expect(row!['transcript_error']).toBe(`The recording is ${wav.length} bytes, more than the 4096 bytes deepgram accepts for transcription`);
      expect(usage.entries).toEqual([expect.objectContaining({ provider: 'deepgram', success: false, errorCode: 'rejected_input' })]);
    } finally {
      await t.close();
    }
  });
});
