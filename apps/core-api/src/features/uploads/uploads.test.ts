// Direct uploads: presign -> PUT to the local direct route -> register, and every way a ticket or an
// upload can be wrong, against real PostgreSQL and real local storage.
import type { ObjectStorage } from '@story/providers';
import { createTicketSigner } from './upload-ticket';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders } from '../../test/conversations-factories';

describe('direct uploads', () => {
  let t: TestContext;
  let user: SignedUp;
  const bytes = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(20_000, 7)]);

  beforeAll(async () => {
    t = await buildTestApp();
    user = await signUp(t.app);
  });
  afterAll(() => t.close());

  async function presign(size = bytes.length, contentType = 'audio/wav') {
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'long.wav', contentType, size } });
    expect(res.statusCode).toBe(200);
    return res.json() as { uploadUrl: string; key: string; ticket: string; headers: Record<string, string>; expiresAt: string };
  }

  const put = (p: { uploadUrl: string; headers: Record<string, string> }, body: Buffer) =>
    t.app.inject({ method: 'PUT', url: new URL(p.uploadUrl).pathname, headers: p.headers, payload: body });

  const rows = async () => Number((await t.database.sql`select count(*)::int as n from recordings`)[0]!['n']);

  it('presigns a server-generated key under the caller, takes the bytes, and registers a row of the ticketed size', async () => {
    const p = await presign();
    expect(p.key).toMatch(new RegExp(`^recordings/${user.userId}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.wav$`));
    expect(new URL(p.uploadUrl).pathname).toBe(`/api/uploads/direct/${encodeURIComponent(p.key)}`);
    expect((await put(p, bytes)).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket, title: 'Long one', duration: 600 } });
    expect(res.statusCode).toBe(201);
    expect(res.json().recording).toMatchObject({ title: 'Long one', original_file_size_bytes: bytes.length, duration_seconds: 600, status: 'completed', transcript_status: 'pending' });
    // Registering again (a retried request) answers with the same row.
    const again = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(again.statusCode).toBe(200);
    expect(again.json().recording.id).toBe(res.json().recording.id);
    const [job] = await t.database.sql`select payload from jobs where kind = 'recording.process' and payload->>'recordingId' = ${res.json().recording.id}`;
    expect(job!['payload']).toMatchObject({ analyze: true });
  });

  it('refuses a truncated upload with 409 size_mismatch and writes no row', async () => {
    const p = await presign();
    await put(p, bytes.subarray(0, 1000));
    const before = await rows();
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'size_mismatch', expected: bytes.length, actual: 1000 });
    expect(await rows()).toBe(before);
  });

  it('refuses registering before anything was uploaded with 409', async () => {
    const p = await presign();
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('upload_missing');
  });

  it('refuses an altered ticket, an expired ticket, another key, and another user with 403', async () => {
    const p = await presign();
    await put(p, bytes);
    const [payload, sig] = p.ticket.split('.');
    const tampered = Buffer.from(payload!, 'base64url').toString().replace(String(bytes.length), '1000');
    const altered = `${Buffer.from(tampered).toString('base64url')}.${sig}`;
    const signer = createTicketSigner(t.config.secrets.uploadTicketSecret);
    const expired = signer.sign({ key: p.key, size: bytes.length, contentType: 'audio/wav', userId: user.userId, exp: Math.floor(Date.now() / 1000) - 1 });
    const outside = signer.sign({ key: `recordings/someone-else/2026/01/x.wav`, size: bytes.length, contentType: 'audio/wav', userId: user.userId, exp: Math.floor(Date.now() / 1000) + 60 });
    const other = await signUp(t.app);
    const cases = [
      { headers: user.headers, payload: { key: p.key, ticket: altered } },
      { headers: user.headers, payload: { key: p.key, ticket: expired } },
      { headers: user.headers, payload: { key: `recordings/${user.userId}/2026/01/other.wav`, ticket: p.ticket } },
      { headers: user.headers, payload: { key: `recordings/someone-else/2026/01/x.wav`, ticket: outside } },
      { headers: other.headers, payload: { key: p.key, ticket: p.ticket } },
    ];
    const before = await rows();
    for (const c of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: c.headers, payload: c.payload });
      expect(res.statusCode).toBe(403);
    }
    expect(await rows()).toBe(before);
  });

  it('the local PUT route needs its ticket, for that key, and refuses more bytes than ticketed', async () => {
    const p = await presign();
    const path = new URL(p.uploadUrl).pathname;
    expect((await t.app.inject({ method: 'PUT', url: path, headers: { 'content-type': 'audio/wav' }, payload: bytes })).statusCode).toBe(403);
    const other = await presign();
    expect((await t.app.inject({ method: 'PUT', url: path, headers: other.headers, payload: bytes })).statusCode).toBe(403);
    const tooMuch = await put(p, Buffer.concat([bytes, Buffer.alloc(10)]));
    expect(tooMuch.statusCode).toBe(413);
    const head = await t.database.sql`select 1 from recordings where storage_key = ${p.key}`;
    expect(head).toHaveLength(0);
  });

  it('validates presign: type, size, someone else\'s campaign', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.txt', contentType: 'text/plain', size: 10 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/contentType/);
    const zero = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.wav', contentType: 'audio/wav', size: 0 } });
    expect(zero.statusCode).toBe(400);
    const other = await signUp(t.app);
    const campaign = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: other.headers, payload: { title: 'Theirs' } })).json();
    const theirs = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.wav', contentType: 'audio/wav', size: 10, campaignId: campaign.id } });
    expect(theirs.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/uploads/presign', payload: { fileName: 'a.wav', contentType: 'audio/wav', size: 10 } })).statusCode).toBe(401);
  });

  it.each([
    'video/mp4\nX-Injected: 1',
    'video/mp4\r\nX-Injected: 1',
    'audio/mpeg\u007f',
    'audio/mpeg\u0000',
    'audio/webm; codecs="opus\n"',
    'video/mp4, audio/mpeg',
    'video/',
    'video/mp4 x',
    'audio/x-unknown',
  ])('presign refuses %j: 400 naming contentType, no ticket', async (contentType) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.mp4', contentType, size: 100 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.stringMatching(/contentType/) });
  });

  it('presign takes a clean type with parameters, trimmed', async () => {
    for (const contentType of ['audio/webm;codecs=opus', ' video/mp4 ', 'video/quicktime', 'audio/ogg; codecs="opus"']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a', contentType, size: 100 } });
      expect([contentType, res.statusCode]).toEqual([contentType, 200]);
    }
  });

  it('register judges the stored bytes as the multipart route does: not audio or video is 400 naming key, deleted, no row', async () => {
    const p = await presign(20_000, 'video/mp4');
    const notMedia = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20_000 - 9, 32)]);
    expect((await put(p, notMedia)).statusCode).toBe(200);
    const before = await rows();
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/not audio or video/);
    expect(await rows()).toBe(before);
    // The object went with the refusal: registering again finds nothing.
    const again = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(again.json().code).toBe('upload_missing');
  });

  it('register stores the type the bytes show (declared video, WAV bytes: audio/wav, audio)', async () => {
    const p = await presign(bytes.length, 'video/mp4');
    await put(p, bytes);
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.sql`select mime_type, media_type from recordings where id = ${res.json().recording.id}`;
    expect(row).toEqual({ mime_type: 'audio/wav', media_type: 'audio' });
    const audio = await t.app.inject({ method: 'GET', url: `/api/recordings/${res.json().recording.id}/audio`, headers: user.headers });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
  });

  it('a stored type that is not a valid header value is served as application/octet-stream, never a 500', async () => {
    const p = await presign();
    await put(p, bytes);
    const reg = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket } });
    // A row written before the type was checked.
    await t.database.sql`update recordings set mime_type = ${'video/mp4\nX-Injected: 1'} where id = ${reg.json().recording.id}`;
    for (const url of [`/api/recordings/${reg.json().recording.id}/audio`, `/api/audio/${reg.json().recording.id}`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: user.headers });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['x-injected']).toBeUndefined();
    }
  });
});

// Spec 000 Limits: a stored file is at most 50 MB (MAX_STORED_FILE_BYTES), voice at most 30 minutes.
describe('direct uploads: the stored-file and voice limits', () => {
  const LIMIT = 30_000;
  let t: TestContext;
  let storage: ObjectStorage;
  let user: SignedUp;
  const wavOf = (size: number) => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(size - 16, 7)]);

  beforeAll(async () => {
    t = await buildTestAppWithProviders((base) => ((storage = base.storage), {}), { MAX_STORED_FILE_BYTES: String(LIMIT) });
    user = await signUp(t.app);
  });
  afterAll(() => t.close());

  const rows = async () => Number((await t.database.sql`select count(*)::int as n from recordings`)[0]!['n']);
  const signer = () => createTicketSigner(t.config.secrets.uploadTicketSecret);
  /** A ticket the server signed for `size` bytes, as one issued before the limit was lowered would be. */
  const ticketFor = (size: number) => {
    const key = `recordings/${user.userId}/2026/11/${crypto.randomUUID()}.wav`;
    return { key, ticket: signer().sign({ key, size, contentType: 'audio/wav', userId: user.userId, exp: Math.floor(Date.now() / 1000) + 600 }) };
  };

  it('presign refuses a file over 50 MB by default with 413 naming the limit', async () => {
    const d = await buildTestApp();
    try {
      const u = await signUp(d.app);
      const over = await d.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: u.headers, payload: { fileName: 'big.wav', contentType: 'audio/wav', size: 50 * 1024 * 1024 + 1 } });
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ error: 'A stored file may be at most 50 MB (52428800 bytes)' });
      const at = await d.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: u.headers, payload: { fileName: 'big.wav', contentType: 'audio/wav', size: 50 * 1024 * 1024 } });
      expect(at.statusCode).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('presign follows MAX_STORED_FILE_BYTES: over it is 413 naming the limit, at it is allowed', async () => {
    const over = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.wav', contentType: 'audio/wav', size: LIMIT + 1 } });
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toBe(`A stored file may be at most 0.03 MB (${LIMIT} bytes)`);
    const at = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName: 'a.wav', contentType: 'audio/wav', size: LIMIT } });
    expect(at.statusCode).toBe(200);
  });

  it('the direct PUT refuses a body over the limit with 413 naming it, even with a ticket for more, and stores nothing', async () => {
    const { key, ticket } = ticketFor(LIMIT + 5000);
    const res = await t.app.inject({ method: 'PUT', url: `/api/uploads/direct/${key}`, headers: { 'content-type': 'audio/wav', 'x-upload-ticket': ticket }, payload: wavOf(LIMIT + 5000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe(`A stored file may be at most 0.03 MB (${LIMIT} bytes)`);
    expect((await storage.head(key)).exists).toBe(false);
  });

  it('register refuses an object whose real size is over the limit: 413, the object deleted, no row', async () => {
    const size = LIMIT + 1000;
    const { key, ticket } = ticketFor(size);
    await storage.put(key, wavOf(size), { contentType: 'audio/wav' });
    const before = await rows();
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key, ticket } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: `A stored file may be at most 0.03 MB (${LIMIT} bytes)` });
    expect((await storage.head(key)).exists).toBe(false);
    expect(await rows()).toBe(before);
  });

  it('register refuses a duration over 30 minutes with 400 naming the voice limit: the object deleted, no row', async () => {
    const { key, ticket } = ticketFor(20_000);
    await storage.put(key, wavOf(20_000), { contentType: 'audio/wav' });
    const before = await rows();
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key, ticket, duration: 30 * 60 + 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('duration: A recording may be at most 30 minutes long (spec 000 Limits: voice at most 30 minutes)');
    expect((await storage.head(key)).exists).toBe(false);
    expect(await rows()).toBe(before);
    // Exactly 30 minutes is allowed.
    const ok = ticketFor(20_000);
    await storage.put(ok.key, wavOf(20_000), { contentType: 'audio/wav' });
    const at = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { ...ok, duration: 30 * 60 } });
    expect(at.statusCode).toBe(201);
  });
});
